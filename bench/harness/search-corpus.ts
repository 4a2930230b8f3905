// The words of the search benchmarks (bench/search.ts, bench/search-engines.ts): what made-up items
// are titled and what a patient types, one list for both.

export const CITIES = ['上海', '北京', '广州', '成都', '杭州', '武汉', '悉尼', '南京', '西安', '长沙'];
export const TOPICS = [
  '白内障',
  '青光眼',
  '高度近视',
  '干眼症',
  '黄斑水肿',
  '糖尿病视网膜病变',
  '斜视',
  '弱视',
  '圆锥角膜',
  '老花眼',
  '全飞秒',
  '角膜塑形镜',
  '视网膜脱离',
  '眼底病',
  '角膜移植',
  '上睑下垂',
  '儿童近视防控',
  '人工晶体',
  '眼表疾病',
  '葡萄膜炎',
];
export const EVENTS = [
  '义诊活动',
  '学术讲座',
  '新技术培训',
  '病例讨论会',
  '科普进社区',
  '专家门诊开诊',
  '临床研究启动',
  '手术直播教学',
  '患者课堂',
  '筛查项目',
];
export const PHRASES = [
  '术前检查必不可少',
  '定期复查可以早发现',
  '规范用药与随访',
  '个性化诊疗方案',
  '多学科联合会诊',
  '日间手术当天回家',
  '视功能训练',
  '眼压与视神经',
  '泪膜稳定性',
  '眼轴增长速度',
];
/** Queries a patient types: common and rare words, pinyin, two words, traditional characters. */
export const QUERIES = [
  ...TOPICS,
  ...CITIES.map((c) => `${c} 医院`),
  ...TOPICS.map((t, i) => `${t} ${EVENTS[i % EVENTS.length]}`),
  '白內障',
  '視網膜',
  'baineizhang',
  'qingguangyan',
  'chen li',
  'lwq',
  '飞秒',
  '悉尼',
  '眼',
  '手术',
  '第 123456 号',
  '术前检查必不可少',
  '琥珀大熊猫',
];

/** The n-th entry of a list, round and round. */
export const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
