/**
 * What a source is, read from its bytes (its Content-Type and its extension are never believed:
 * the extension is only a first filter on the address). Images are transformed; files (video,
 * captions) are passed through unchanged.
 */

const IMAGE_TYPES = ['jpeg', 'png', 'webp', 'avif', 'gif', 'svg'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export type FileType = 'mp4' | 'webm' | 'vtt';
export type SourceType = ImageType | FileType;

/** What pages learn of an original: enough for `srcset`, `width`/`height` and a placeholder. */
export interface MediaDescription {
  v: string;
  width: number;
  height: number;
  type: SourceType;
  color: string;
  /** No transparent pixel: its colour may stand behind it while it loads. */
  opaque: boolean;
}

/** What an address may name, by its extension (any letter case). */
export const IMAGE_EXTENSION = /\.(?:jpe?g|png|webp|avif|gif|svg)$/i;
export const FILE_EXTENSION = /\.(?:mp4|webm|vtt)$/i;

/** The Content-Type a file is served with. */
export const FILE_CONTENT_TYPE: Record<FileType, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  vtt: 'text/vtt; charset=utf-8',
};

export const isImageType = (type: SourceType): type is ImageType => (IMAGE_TYPES as readonly string[]).includes(type);

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

/** The ISO BMFF brands (`ftyp` box) of an AVIF or MP4 file, major first; empty for anything else. */
function brands(bytes: Buffer): string[] {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return [];
  const size = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
  const found = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) found.push(ascii(bytes, at, at + 4));
  return found;
}

/** The start of a text file, its byte-order mark and leading white space dropped. */
function textStart(bytes: Buffer, length: number): string {
  return bytes
    .toString('utf8', 0, Math.min(bytes.length, length))
    .replace(/^\uFEFF/, '')
    .trimStart();
}

/** An SVG document: XML whose first element is `<svg`, after any declaration, comments or doctype. */
function isSvg(bytes: Buffer): boolean {
  const start = textStart(bytes, 4096);
  if (!start.startsWith('<')) return false;
  const rest = start.replace(/^(?:<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>|\s+)*/i, '');
  return /^<svg[\s>]/.test(rest);
}

/** The type of a source from its first bytes; undefined when it is none the endpoint serves. */
export function sniff(bytes: Buffer): SourceType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return 'gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  const ftyp = brands(bytes);
  if (ftyp.length > 0) {
    if (ftyp[0] === 'avif' || ftyp[0] === 'avis') return 'avif';
    if (ftyp.some((b) => /^(?:isom|iso[2-9]|mp4[12]|avc1|dash|M4V )$/.test(b))) return 'mp4';
    return undefined;
  }
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3 && ascii(bytes, 0, 64).includes('webm')) return 'webm';
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(textStart(bytes, 16))) return 'vtt';
  if (isSvg(bytes)) return 'svg';
  return undefined;
}
