// Baseline: a raw node:http server answering one fixed response (status, headers, body) that
// it reads from a JSON file. Prints "ready" when listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [file, port] = process.argv.slice(2);
const { headers, body } = JSON.parse(readFileSync(file, 'utf8'));
const bytes = Buffer.from(body, 'base64');
createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(bytes);
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
