/** The shared module pages build media addresses with: refs, paths and srcset. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cropWidth, decodeRef, encodeRef, filePath, MEDIA_WIDTHS, mediaPath, sourceOfAddress, srcset } from '../shared/media-url.js';

describe('media addresses', () => {
  it('encodes any URL as base64url without padding, and decodes it back', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl(), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 })), (url) => {
        const ref = encodeRef(url);
        expect(ref).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeRef(ref)).toBe(url);
      }),
    );
    const cms = 'https://media.cms.example.cn/uploads/2026/11/眼科-Banner 01.JPG';
    expect(encodeRef(cms)).toBe(Buffer.from(cms).toString('base64url'));
  });

  it('refuses refs that are not the one spelling of a UTF-8 text', () => {
    for (const ref of ['', 'a', 'aGk=', 'a+b/', 'aGl', '_w', 'x'.repeat(2049)]) expect(decodeRef(ref), ref).toBeUndefined();
    expect(decodeRef('aGk')).toBe('hi');
  });

  it('builds paths and a srcset that never promises more than the original has', () => {
    const ref = encodeRef('https://media.cms.example.cn/a.jpg');
    expect(mediaPath(ref, '0', 640)).toBe(`/_media/640/0/${ref}`);
    expect(filePath(ref, 'abcdef012345')).toBe(`/_media/file/abcdef012345/${ref}`);
    expect(srcset(ref, 'abcdef012345', 1000)).toBe(
      [96, 192, 384, 640, 828].map((w) => `/_media/${w}/abcdef012345/${ref} ${w}w`).join(', ') + `, /_media/1080/abcdef012345/${ref} 1000w`,
    );
    expect(srcset(ref, '0', 50)).toBe(`/_media/96/0/${ref} 50w`);
    expect(srcset(ref, '0', 5000).split(', ')).toHaveLength(MEDIA_WIDTHS.length);
    // A size not known: every width, each described by itself.
    expect(srcset(ref, '0')).toBe(MEDIA_WIDTHS.map((w) => `/_media/${w}/0/${ref} ${w}w`).join(', '));
  });

  it('names a crop before the width, and offers a crop\u2019s widths up to the part it keeps', () => {
    const ref = encodeRef('/uploads/banners/Banner-Treatment.JPG');
    expect(mediaPath(ref, 'abcdef012345', 828, 'right-2x1')).toBe(`/_media/right-2x1/828/abcdef012345/${ref}`);
    // A 3600 × 1200 banner: the crop keeps its right 2400 × 1200.
    expect(cropWidth('right-2x1', 3600, 1200)).toBe(2400);
    // A 4000 × 3000 photograph: its whole width, 4000 × 2000 of its middle.
    expect(cropWidth('right-2x1', 4000, 3000)).toBe(4000);
    // At most the crop's widest, 1080 px.
    expect(srcset(ref, 'abcdef012345', 3600, 'right-2x1', 1200).split(', ').at(-1)).toBe(
      `/_media/right-2x1/1080/abcdef012345/${ref} 1080w`,
    );
    expect(srcset(ref, 'abcdef012345', 1800, 'right-2x1', 450).split(', ').at(-1)).toBe(`/_media/right-2x1/1080/abcdef012345/${ref} 900w`);
    expect(sourceOfAddress(mediaPath(ref, '0', 1080, 'right-2x1'))).toBe('/uploads/banners/Banner-Treatment.JPG');
  });

  it('reads back the source an address names, absolute or not, a variant or a file', () => {
    const ref = encodeRef('/uploads/covers/Eye-Exam.JPG');
    expect(sourceOfAddress(mediaPath(ref, '0', 1080))).toBe('/uploads/covers/Eye-Exam.JPG');
    expect(sourceOfAddress(`https://site.test${filePath(ref, 'abcdef012345')}`)).toBe('/uploads/covers/Eye-Exam.JPG');
    expect(sourceOfAddress('/_media/1080/0/not+a+ref')).toBeUndefined();
  });
});
