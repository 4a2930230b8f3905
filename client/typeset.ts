/**
 * Typesetting the content's plain text for the page. Chinese may break between any two
 * characters, and a number between itself and its unit: a line may end in "66" or "18" and the
 * next start with 号 or 层, or break a term in two (白内/障). A word joiner (U+2060), invisible and
 * read and found in the page as if it were not there, keeps them together. The stylesheet does
 * the rest: headings balanced, short text never ending with a line of one character, summaries
 * clamped to the lines their card has (global.css, docs/product/typesetting.md).
 */

/**
 * Terms a line must not break inside: the content's medical terms and the words a break most
 * often splits. Longer terms first, where one holds another.
 */
export const TERMS = (
  '近视激光 白内障 青光眼 眼底病 视网膜 干眼症 玻璃体 糖尿病 眼整形 视神经 青少年 备忘录 ' +
  '手术 角膜 近视 屈光 黄斑 晶体 弱视 斜视 视力 眼睑 飞秒 激光 筛查 门诊 专家 眼科 医院 ' +
  '明瞳 集团 患者 儿童 澳洲 悉尼 翻译 协助 质量 标准 启动 小偷 世界 公益'
).split(' ');

const TERM = new RegExp(TERMS.join('|'), 'g');

/**
 * The text with each listed term kept whole, and each number kept with the Han character after
 * it (1288 号, 18层: a no-break space for a space, a word joiner where there is none).
 */
export function typeset(text: string): string {
  return text
    .replace(/(\d) (?=\p{Script=Han})/gu, '$1\u00a0')
    .replace(/(\d)(?=\p{Script=Han})/gu, '$1\u2060')
    .replace(TERM, (term) => [...term].join('\u2060'));
}
