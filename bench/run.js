// `npm run bench`: every benchmark, each figure beside a baseline measured in the same run.
import { benchApiHit } from './api-hit.js';

const { table } = await benchApiHit();
console.log('\nwrk -t1 -c50, 3 alternating rounds of 8 s, medians; loopback only\n');
console.log(table);
