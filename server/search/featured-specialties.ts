/**
 * The expert finder's specialties are the featured treatments (特色治疗, the specialty-treatment list),
 * not the words each expert's `specialty` happens to use: eight choices a patient recognises, where
 * the experts' own words made some twenty, most of one expert each and overlapping (眼底病,
 * 玻璃体视网膜手术, 糖尿病视网膜病变). An expert is under a treatment when one of their specialties
 * names its field: the treatment's title, its title without the word for its kind (干眼症 → 干眼,
 * 近视激光手术 → 近视激光), or a word the field goes by (docs/decisions/063).
 */

/**
 * The words each featured treatment's field goes by in the experts' specialties, by the treatment's
 * title. A treatment this table does not name is matched by its title alone: a renamed or new
 * treatment still finds the experts who use its words.
 */
const FIELD_WORDS: Readonly<Record<string, readonly string[]>> = {
  近视激光手术: ['屈光手术', '飞秒', '准分子', '有晶体眼'],
  白内障: [],
  青光眼: [],
  眼底病: ['视网膜', '黄斑', '玻璃体'],
  儿童眼病与斜弱视: ['小儿', '儿童', '斜视', '弱视', '近视防控'],
  角膜病: ['角膜'],
  眼整形: ['眼眶', '眼睑', '泪道'],
  干眼症: ['眼表'],
};

/** A title's own words: the title, and the title without the word for its kind. */
function titleWords(title: string): string[] {
  const stem = title.replace(/(手术|治疗|症|病)$/, '');
  return stem.length >= 2 && stem !== title ? [title, stem] : [title];
}

/** Whether an expert with these specialties is under the featured treatment `title`. */
export function underTreatment(specialties: readonly string[], title: string): boolean {
  const words = [...titleWords(title), ...(FIELD_WORDS[title] ?? [])];
  return specialties.some((s) => words.some((w) => s.includes(w)));
}
