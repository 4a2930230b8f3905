/**
 * What a patient types, and what must be among the first three results (docs/product/search.md):
 * conditions, treatments, devices, doctors' names in characters and in pinyin, hospitals,
 * traditional characters, full-width letters, and phrases from inside titles. Each expected item
 * is named by its kind and its title as the demo content has it.
 */
import type { SearchKind } from '../../shared/search.js';

export interface RelevanceCase {
  query: string;
  /** What kind of query it is, for the report. */
  what: string;
  expect: { kind: SearchKind; title: string };
}

export const RELEVANCE_QUERIES: readonly RelevanceCase[] = [
  { query: '近视手术', what: 'treatment', expect: { kind: 'article', title: '近视手术前，你需要了解的五件事' } },
  { query: '白內障', what: 'condition, traditional', expect: { kind: 'treatment', title: '白内障' } },
  { query: 'chen li', what: "doctor's name, pinyin", expect: { kind: 'expert', title: '陈立衡' } },
  { query: '飞秒', what: 'device, a word ICU splits', expect: { kind: 'treatment', title: '全飞秒激光手术系统' } },
  { query: '悉尼', what: 'hospital city, a word ICU splits', expect: { kind: 'hospital', title: '明瞳澳洲眼科医院' } },
  { query: '青光眼', what: 'condition', expect: { kind: 'treatment', title: '青光眼' } },
  { query: '林婉清', what: "doctor's name", expect: { kind: 'expert', title: '林婉清' } },
  { query: 'linwanqing', what: "doctor's name, pinyin joined", expect: { kind: 'expert', title: '林婉清' } },
  { query: 'lwq', what: "doctor's name, initials", expect: { kind: 'expert', title: '林婉清' } },
  { query: 'zhao qiming', what: "doctor's name, pinyin", expect: { kind: 'expert', title: '赵启明' } },
  { query: '苏静怡', what: "doctor's name", expect: { kind: 'expert', title: '苏静怡' } },
  { query: '角膜塑形镜', what: 'device, in bodies only: who fits it', expect: { kind: 'expert', title: '郑慧敏' } },
  { query: '黄斑水肿', what: 'condition', expect: { kind: 'research', title: '眼底病团队关于黄斑水肿治疗的研究成果发表' } },
  { query: 'ＯＣＴ', what: 'device, full-width letters', expect: { kind: 'treatment', title: '光学相干断层扫描仪' } },
  { query: '上海明瞳眼科医院', what: 'hospital', expect: { kind: 'hospital', title: '上海明瞳眼科医院' } },
  { query: '北京 医院', what: 'hospital, two words', expect: { kind: 'hospital', title: '北京明瞳眼科医院' } },
  { query: '視力篩查', what: 'service, traditional', expect: { kind: 'article', title: '成都明瞳眼科医院暑期儿童视力筛查活动启动' } },
  { query: '斜视', what: 'condition', expect: { kind: 'article', title: '孩子斜视，只是影响外观吗？' } },
  { query: '悄无声息', what: 'phrase inside a title', expect: { kind: 'article', title: '青光眼：悄无声息的“视力小偷”' } },
  { query: '户外活动两小时', what: 'phrase inside a title', expect: { kind: 'article', title: '每天户外活动两小时，为什么能预防近视？' } },
  { query: 'baineizhang', what: 'condition, pinyin', expect: { kind: 'treatment', title: '白内障' } },
  { query: '准分子激光', what: 'device', expect: { kind: 'treatment', title: '准分子激光手术系统' } },
  { query: '老花眼', what: 'condition', expect: { kind: 'article', title: '老花眼：四十岁以后的“必修课”' } },
  { query: '干眼', what: 'condition', expect: { kind: 'treatment', title: '干眼症' } },
  { query: '宣传片', what: 'film', expect: { kind: 'film', title: '明瞳眼科医疗集团企业宣传片' } },
  { query: '光明乡村行', what: 'programme', expect: { kind: 'film', title: '光明乡村行：十年公益路' } },
  { query: '糖尿病 眼底', what: 'condition, two words', expect: { kind: 'article', title: '糖尿病患者，为什么每年都要查眼底？' } },
  { query: '上睑下垂', what: 'condition, in a summary', expect: { kind: 'treatment', title: '眼整形' } },
  { query: '眼科医院 武汉', what: 'hospital, words reversed', expect: { kind: 'hospital', title: '武汉明瞳眼科医院' } },
  { query: '澳洲', what: 'hospital abroad', expect: { kind: 'hospital', title: '明瞳澳洲眼科医院' } },
];

/**
 * What a patient means by a treatment's, a hospital's or a doctor's name (or its beginning, or a
 * word of it): that page, first, above the news and articles that mention it, in the results and in
 * the header's suggestions alike.
 */
export const NAMED_FIRST: readonly RelevanceCase[] = [
  { query: '近视', what: "condition, a treatment's title begins with it", expect: { kind: 'treatment', title: '近视激光手术' } },
  { query: '近', what: 'its first character, still typing', expect: { kind: 'treatment', title: '近视激光手术' } },
  { query: '近視', what: 'condition, traditional', expect: { kind: 'treatment', title: '近视激光手术' } },
  { query: 'jinshi', what: 'condition, pinyin', expect: { kind: 'treatment', title: '近视激光手术' } },
  { query: '近视 激光', what: "two words of a treatment's title", expect: { kind: 'treatment', title: '近视激光手术' } },
  { query: '白内障', what: "a treatment's whole title", expect: { kind: 'treatment', title: '白内障' } },
  { query: '青光眼', what: "a treatment's whole title", expect: { kind: 'treatment', title: '青光眼' } },
  { query: '眼底病', what: "a treatment's whole title", expect: { kind: 'treatment', title: '眼底病' } },
  { query: '干眼症', what: "a treatment's whole title", expect: { kind: 'treatment', title: '干眼症' } },
  { query: '飞秒', what: "a word inside a device's title", expect: { kind: 'treatment', title: '全飞秒激光手术系统' } },
  { query: '上海', what: "city, a hospital's title begins with it", expect: { kind: 'hospital', title: '上海明瞳眼科医院' } },
  { query: 'shanghai', what: 'city, pinyin', expect: { kind: 'hospital', title: '上海明瞳眼科医院' } },
  { query: '武汉', what: 'city', expect: { kind: 'hospital', title: '武汉明瞳眼科医院' } },
  { query: '悉尼', what: "city, not in the hospital's title", expect: { kind: 'hospital', title: '明瞳澳洲眼科医院' } },
  { query: 'xini', what: "city, pinyin, not in the hospital's title", expect: { kind: 'hospital', title: '明瞳澳洲眼科医院' } },
  { query: '澳洲', what: "a word inside a hospital's title", expect: { kind: 'hospital', title: '明瞳澳洲眼科医院' } },
  { query: '陈', what: "a doctor's surname", expect: { kind: 'expert', title: '陈立衡' } },
  { query: 'chen', what: "a doctor's surname, pinyin", expect: { kind: 'expert', title: '陈立衡' } },
  { query: '陈立衡', what: "a doctor's full name", expect: { kind: 'expert', title: '陈立衡' } },
  { query: 'chen li', what: "a doctor's name begun, pinyin", expect: { kind: 'expert', title: '陈立衡' } },
  { query: 'zqm', what: "a doctor's initials", expect: { kind: 'expert', title: '赵启明' } },
];
