/**
 * The server's counts of what the parts drawn only as they near the window hold (measurer.ts says
 * why; home-placeholders.css and global/footer-placeholder.css turn them into heights). Imported by
 * entry-server.tsx alone: the browser never counts.
 */
import { clinicDays } from '../components/clinic-week.js';
import { ACCESS, DISCLAIMER } from '../components/footer.js';
import type { Measurer } from './measurer.js';

/**
 * A text's width in em, rounded up: a Chinese character (or any but ASCII) one, an ASCII
 * character (a digit, a Latin letter, a space) 0.6, about the widest of them in the site's fonts.
 */
function ems(text: string | undefined): number {
  let width = 0;
  for (const char of text ?? '') width += char.codePointAt(0)! < 0x80 ? 0.6 : 1;
  return Math.ceil(width);
}

/** The widest of some texts, in em. */
const widest = (texts: readonly (string | undefined)[]): number => Math.max(0, ...texts.map(ems));

/** The map link after an address: 查看地图, its icon and its margin, in em. */
const MAP_LINK_EMS = 6;

export const serverMeasurer: Measurer = {
  head: (title, lead) => ({ '--m-heading': ems(title), '--m-lead': ems(lead) }),

  treatments: (treatments) => ({
    '--m-items': treatments.length,
    '--m-title': widest(treatments.map((t) => t.title)),
    '--m-text': widest(treatments.map((t) => t.summary)),
  }),

  experts: (experts) => ({
    '--m-items': experts.length,
    '--m-title': widest(experts.map((e) => `${e.name}${e.title}`)),
    '--m-text': widest(experts.map((e) => e.hospital)),
    '--m-name': widest(experts.map((e) => e.name)),
    '--m-specialty': widest(experts.map((e) => e.specialty)),
    // The clinic week: its most half-days, and its widest clinic (a tile's second line).
    '--m-days': Math.max(0, ...experts.map((e) => clinicDays(e.schedule ?? []).length)),
    '--m-clinic': widest(experts.flatMap((e) => clinicDays(e.schedule ?? []).map((d) => d.clinic))),
  }),

  hospitals: (hospitals, abroad) => ({
    '--m-items': hospitals.length,
    '--m-title': widest(hospitals.map((h) => h.name)),
    '--m-text': widest(hospitals.map((h) => h.address)),
    '--m-phone': widest(hospitals.map((h) => h.phone)),
    '--m-abroad': abroad.length,
    '--m-abroad-title': widest(abroad.map((h) => h.name)),
    '--m-abroad-text': widest(abroad.map((h) => h.summary)),
    '--m-abroad-list': widest(abroad.flatMap((h) => h.highlights.slice(0, 4))),
  }),

  news(categories, rows) {
    const shown = categories.flatMap((c) => c.items.slice(1, 1 + rows));
    return {
      '--m-items': categories.length,
      '--m-name': widest(categories.map((c) => c.name)),
      '--m-title': widest(categories.map((c) => c.items[0]?.title)),
      '--m-rows': Math.max(0, ...categories.map((c) => Math.min(rows, c.items.length - 1))),
      '--m-row-title': widest(shown.map((i) => i.title)),
      '--m-row-text': widest(shown.map((i) => i.summary)),
    };
  },

  footer(contact, intro, groupName, columns) {
    const copyright = `© 2004-2024 ${groupName ?? ''} 版权所有`;
    // Each filing with its badge: they wrap as two parts.
    const filings = contact?.filings ? [ems(contact.filings.icp), ems(contact.filings.publicSecurity) + 2] : [];
    return {
      '--m-name': ems(groupName),
      '--m-slogan': ems(intro?.slogan),
      '--m-phone': ems(contact?.phone),
      '--m-address': ems(contact?.address) + (contact?.mapUrl ? MAP_LINK_EMS : 0),
      '--m-hours': ems(contact?.hours),
      '--m-columns': columns.length,
      '--m-links': Math.max(0, ...columns.map((c) => c.links.length)),
      '--m-link': Math.max(0, ...columns.flatMap((c) => [c.title, ...c.links.map((l) => l.label)].map(ems))),
      '--m-link-ems': columns.reduce((sum, c) => sum + c.links.reduce((n, l) => n + ems(l.label) + 1, 0), 0),
      '--m-account': contact?.wechat ? ems(`微信公众号：${contact.wechat.account}`) : 0,
      '--m-note': ems(contact?.wechat?.note),
      '--m-copyright': ems(copyright),
      '--m-disclaimer': ems(DISCLAIMER),
      '--m-bottom': ems(copyright) + ems(ACCESS) + filings.reduce((a, b) => a + b, 0) + ems(DISCLAIMER),
      '--m-bottom-widest': Math.max(ems(copyright), ems(DISCLAIMER), ...filings),
    };
  },
};
