/** Small builders that keep the demo data files readable. */
import type { ContentDetail } from '../demo-content-type.js';

/** The covers the editors uploaded: photos drawn from the illustrations under uploads/covers (docs/product/demo-content.md). */
type CoverName =
  | 'anniversary'
  | 'award-cert'
  | 'ceremony'
  | 'charity-bus'
  | 'child-check'
  | 'child-smile'
  | 'community-screening'
  | 'community-talk'
  | 'corridor'
  | 'data'
  | 'day-surgery'
  | 'dry-eye-clinic'
  | 'excimer-laser'
  | 'eye-chart'
  | 'eye-exam'
  | 'fundus-camera'
  | 'glasses'
  | 'global'
  | 'handshake'
  | 'humidifier'
  | 'invention'
  | 'lab'
  | 'laser-suite'
  | 'lecture-hall'
  | 'media'
  | 'meeting'
  | 'microscope'
  | 'mobile-app'
  | 'network'
  | 'newspaper'
  | 'oct-scan'
  | 'ocular-surface-analyzer'
  | 'patent'
  | 'patient-class'
  | 'plaque-unveil'
  | 'quality-audit'
  | 'radio'
  | 'reading'
  | 'retina'
  | 'rural-team'
  | 'service-pledge'
  | 'smart-clinic'
  | 'surgery'
  | 'telemedicine'
  | 'training';

/** A photograph uploaded as it is (uploads/photos). */
type Photo = `/uploads/photos/${string}.webp`;

/** A cover as an editor names the upload: `Eye-Exam.JPG`, and every third `.jpeg`. */
const cover = (name: CoverName | Photo): string => {
  if (name.startsWith('/')) return name;
  const upload = name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
  return `/uploads/covers/${upload}${name.length % 3 === 0 ? '.jpeg' : '.JPG'}`;
};

/**
 * Turns a list of blocks into simple HTML:
 * '## 标题' → <h3>, '* 甲|乙|丙' → <ul> with one <li> per item, '!img:/uploads/x.JPG|说明' → <img>,
 * anything else → <p>.
 */
export function html(blocks: readonly string[]): string {
  return blocks
    .map((b) => {
      if (b.startsWith('## ')) return `<h3>${b.slice(3)}</h3>`;
      if (b.startsWith('* ')) {
        const items = b.slice(2).split('|');
        return `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
      }
      if (b.startsWith('!img:')) {
        const [src, alt] = b.slice(5).split('|');
        return `<p><img src="${src}" alt="${alt ?? ''}" width="800" height="500"></p>`;
      }
      return `<p>${b}</p>`;
    })
    .join('');
}

/** A content item written compactly: `cover` is a cover name, `body` the blocks for html(). */
export interface Draft {
  id: number;
  title: string;
  summary: string;
  cover: CoverName | Photo;
  date: string;
  body: readonly string[];
  source?: string;
  author?: string;
  views: number;
  /** The expert (an id in experts.ts) who reviewed a health article. */
  reviewerId?: number;
}

/** Builds the content items of one category, with default source and author. */
export function items(categoryId: number, defaults: { source: string; author: string }, drafts: readonly Draft[]): ContentDetail[] {
  return drafts.map((d) => ({
    id: d.id,
    categoryId,
    title: d.title,
    summary: d.summary,
    cover: cover(d.cover),
    date: d.date,
    content: html(d.body),
    source: d.source ?? defaults.source,
    author: d.author ?? defaults.author,
    views: d.views,
    ...(d.reviewerId === undefined ? {} : { reviewerId: d.reviewerId }),
  }));
}
