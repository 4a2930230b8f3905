/**
 * `npx tsx scripts/make-promo-video.ts`: makes the demo content's promo film from the site's own
 * illustrations: a title card, then four scenes joined by cross-fades, as H.264 MP4 and VP9 WebM,
 * with its Chinese captions as WebVTT (server/embedded-api/uploads/promotions/corporate.mp4, .webm and -zh.vtt, served by the embedded content API). The SVGs are
 * drawn to frames by sharp and encoded by Debian's ffmpeg; run it again after changing a scene.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const MEDIA = 'server/embedded-api/uploads';
const OUT = `${MEDIA}/promotions/corporate`;
const WIDTH = 960;
const HEIGHT = 540;
const FPS = 24;
/** How long each scene is on screen, and how long two scenes blend, in seconds. */
const SCENE_S = 3;
const FADE_S = 0.6;

/** The opening card: the logo, the group's name and its slogan, in the site's colours. */
const TITLE_CARD = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b4f8a"/><stop offset="1" stop-color="#14a3a3"/></linearGradient></defs>
<rect width="1280" height="720" fill="url(#bg)"/>
<circle cx="640" cy="250" r="92" fill="#ffffff" opacity="0.12"/>
<image href="data:image/svg+xml;base64,${readFileSync(`${MEDIA}/brand/logo.svg`).toString('base64')}" x="570" y="180" width="140" height="140"/>
<text x="640" y="430" text-anchor="middle" font-family="Noto Sans CJK SC" font-size="64" font-weight="700" fill="#ffffff">明瞳眼科医疗集团</text>
<text x="640" y="500" text-anchor="middle" font-family="Noto Sans CJK SC" font-size="34" fill="#dff3f3">守护光明，看见更好的未来</text>
</svg>`;

/** Each scene and the caption shown over it. */
const SCENES: { svg: string | Buffer; caption: string }[] = [
  { svg: Buffer.from(TITLE_CARD), caption: '明瞳眼科医疗集团：守护光明，看见更好的未来' },
  { svg: `${MEDIA}/promotions/corporate.svg`, caption: '二十年专注眼科，从上海出发，走向全国' },
  { svg: `${MEDIA}/promotions/environment.svg`, caption: '宽敞明亮的就诊环境，让每一次就诊更从容' },
  { svg: `${MEDIA}/promotions/charity.svg`, caption: '光明乡村行：医疗队走进两百多个县乡' },
  { svg: `${MEDIA}/promotions/international.svg`, caption: '中澳携手，以同一标准守护光明' },
];

const work = mkdtempSync(join(tmpdir(), 'promo-'));
try {
  const frames: string[] = [];
  for (const [i, scene] of SCENES.entries()) {
    const file = join(work, `scene-${i}.png`);
    const input = typeof scene.svg === 'string' ? readFileSync(scene.svg) : scene.svg;
    await sharp(input, { density: 144 }).resize(WIDTH, HEIGHT, { fit: 'cover' }).png().toFile(file);
    frames.push(file);
  }

  // Every scene a still held for SCENE_S, each one blended into the next over FADE_S.
  const inputs = frames.flatMap((f) => ['-loop', '1', '-framerate', String(FPS), '-t', String(SCENE_S), '-i', f]);
  const fades: string[] = [];
  let last = '[0:v]';
  for (let i = 1; i < frames.length; i++) {
    const out = i === frames.length - 1 ? '[joined]' : `[v${i}]`;
    fades.push(`${last}[${i}:v]xfade=transition=fade:duration=${FADE_S}:offset=${(i * (SCENE_S - FADE_S)).toFixed(2)}${out}`);
    last = out;
  }
  const filter = `${fades.join(';')};[joined]format=yuv420p[v]`;
  const common = ['-y', '-loglevel', 'error', ...inputs, '-filter_complex', filter, '-map', '[v]', '-an', '-r', String(FPS)];
  // H.264 for every browser; faststart puts the index first so that playback starts before the whole file arrives.
  execFileSync('ffmpeg', [...common, '-c:v', 'libx264', '-preset', 'veryslow', '-crf', '28', '-movflags', '+faststart', `${OUT}.mp4`]);
  // VP9, smaller for the browsers that take it (listed first in the content).
  execFileSync('ffmpeg', [...common, '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '46', '-row-mt', '1', `${OUT}.webm`]);

  // Captions: one cue per scene, from its start (after the previous fade) to the end of its own fade.
  const stamp = (s: number) => `00:${String(Math.floor(s)).padStart(2, '0')}.${String(Math.round((s % 1) * 1000)).padStart(3, '0')}`;
  const cues = SCENES.map((scene, i) => {
    const start = i * (SCENE_S - FADE_S);
    const end = i === SCENES.length - 1 ? start + SCENE_S : start + SCENE_S - FADE_S;
    return `${i + 1}\n${stamp(start)} --> ${stamp(end)}\n${scene.caption}\n`;
  });
  writeFileSync(`${OUT}-zh.vtt`, `WEBVTT\n\n${cues.join('\n')}`);

  const total = SCENES.length * SCENE_S - (SCENES.length - 1) * FADE_S;
  for (const file of [`${OUT}.mp4`, `${OUT}.webm`, `${OUT}-zh.vtt`]) console.log(`${file}: ${Math.round(statSync(file).size / 1024)} KB`);
  console.log(`duration: ${total.toFixed(1)} s`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
