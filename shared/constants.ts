/** The site's fixed numbers: header and scaling constants (docs/product/header-and-footer.md, scaling.md), category ids (categories.md), paging limits. */

export const HEADER_HOVER_DELAY_MS = 100;
export const SOLID_HEADER_SCROLL_THRESHOLD_PX = 10;
export const SCROLL_LISTENER_DELAY_MS = 300;
export const PANEL_HEIGHT_PATIENT_SERVICES_PX = 300;
export const PANEL_HEIGHT_DEFAULT_PX = 350;
export const DESIGN_WIDTH_PX = 1920;
/** At this viewport width or less the scale factor is fixed at 1 (the phone layout). */
export const UNSCALED_MAX_WIDTH_PX = 500;
/**
 * The narrowest window the design is scaled to whole (SITE.md section 7 as amended, docs/decisions/064):
 * there its 18 px body text is drawn at 16 px. A narrower window keeps that factor, 1707 / 1920, and
 * the layout flows to the window's width instead of shrinking further.
 */
export const SCALED_MIN_WIDTH_PX = 1707;

export const CATEGORY = {
  featuredTreatments: 5,
  knowledge: 6,
  equipment: 7,
  researchInnovation: 15,
  academicExchange: 16,
  educationNews: 17,
  researchNews: 18,
  groupNews: 19,
  hospitalNews: 20,
  mediaReports: 21,
} as const;

/** News categories served by /api/news (equipment items are content items of category 7). */
export const NEWS_CATEGORY_IDS = [CATEGORY.equipment, CATEGORY.groupNews, CATEGORY.hospitalNews, CATEGORY.mediaReports] as const;

/** Sub-categories of 教育新闻 (17) and 科研新闻 (18), served by .../17/children and .../18/children. */
export const RESEARCH_SUBCATEGORY_IDS = { 17: [22, 23, 24], 18: [25, 26, 27] } as const;

/** Categories served by /api/academic-research. */
export const RESEARCH_CATEGORY_IDS = [
  CATEGORY.researchInnovation,
  CATEGORY.academicExchange,
  CATEGORY.educationNews,
  CATEGORY.researchNews,
  ...RESEARCH_SUBCATEGORY_IDS[17],
  ...RESEARCH_SUBCATEGORY_IDS[18],
] as const;

export const PAGE_SIZE_DEFAULT = 9;
export const PAGE_SIZE_MAX = 50;
export const PAGE_MAX = 1000;

/** The large-text mode (长者模式): its switch's address and the cookie that remembers it. */
export const TEXT_SIZE_PATH = '/text-size';
export const TEXT_SIZE_COOKIE = 'textsize';
/**
 * The other reading preferences of 辅助浏览 (docs/decisions/066): their switch's address, and the
 * cookies that remember the theme (`contrast` or `plain`; none: the system's preference decides)
 * and the large cursor (`large`).
 */
export const A11Y_PATH = '/a11y';
export const THEME_COOKIE = 'theme';
export const CURSOR_COOKIE = 'cursor';
/**
 * The variant of a page an edge in front says a request gets (docs/decisions/017 and 066): its
 * layout (zoom, transform or large), then `+contrast` or `+plain` for a chosen theme and `+cursor`.
 */
export const PAGE_VARIANT_HEADER = 'x-page-variant';
/** The mark after a page's first band, which the browser waits for before it draws (docs/decisions/042). */
export const FIRST_SCREEN_END_ID = 'first-screen-end';
