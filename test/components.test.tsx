/**
 * The layout's components rendered on the server with hand-made loader data: the header's nine
 * items and panels, the footer's category links, and the error states.
 */
import { servedImage } from './support/served-image.js';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, data, StaticRouterProvider, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Layout } from '../client/components/layout.js';
import { PageError, RootError } from '../client/components/page-error.js';
import NewsPage from '../client/pages/news-page.js';
import type { RouteHandle } from '../client/route-handle.js';
import type { PageData } from '../shared/site/page-loaders.js';
import { ROUTES, type RouteKey } from '../shared/site/route-table.js';

const layoutData: PageData<'layout'> = {
  intro: {
    name: '测试眼科集团',
    slogan: '守护光明',
    summary: '一段用于测试的集团简介。',
    content: '<p>简介</p>',
    logo: servedImage('/media/brand/logo.svg'),
    image: servedImage('/media/brand/group-intro.svg'),
    stats: [],
    culture: [],
    history: [],
  },
  patientCategories: [
    { id: 5, name: '特色治疗' },
    { id: 6, name: '科普知识' },
    { id: 7, name: '治疗设备' },
  ],
  treatments: [
    {
      id: 1,
      title: '近视激光',
      icon: servedImage('/media/t/laser.svg'),
      image: servedImage('/media/t/laser.svg'),
      summary: '摘要',
      content: '',
    },
  ],
  researchCategories: [
    { id: 15, name: '科研创新' },
    { id: 16, name: '学术交流' },
  ],
  newsCategories: [
    { id: 19, name: '集团新闻' },
    { id: 20, name: '医院新闻' },
    { id: 21, name: '媒体报道' },
  ],
  contact: {
    groupName: '测试眼科集团',
    address: '测试市测试路 1 号',
    postcode: '200000',
    phone: '400-000-0000',
    email: 'info@example.com',
    hours: '08:00-17:30',
    branches: [],
  },
  hospitals: [
    { id: 1, name: '测试眼科医院', city: '测试', phone: '010-0000-0000' },
    {
      id: 2,
      name: '测试澳洲眼科医院',
      city: '悉尼',
      phone: '+61 2 0000 0000',
      abroad: true,
      image: servedImage('/media/hospitals/sydney.svg'),
      summary: '测试用的海外医院。',
    },
  ],
};

const newsData: PageData<'news'> = {
  categoryId: 20,
  list: {
    items: [
      { id: 301, categoryId: 20, title: '医院开展义诊', summary: '摘要', cover: servedImage('/media/covers/a.svg'), date: '2024-05-01' },
    ],
    total: 20,
    page: 1,
    pageSize: 9,
  },
};

/** A route's handle as the app's routes make it (client/app-routes.tsx). */
const handle = (route: RouteKey): RouteHandle => ({ route, title: ROUTES[route].title });

function routes(layout: PageData<'layout'> | null): RouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      Component: Layout,
      ErrorBoundary: RootError,
      loader: () => layout,
      children: [
        { id: 'home', index: true, handle: handle('home'), loader: () => ({}), Component: () => <p>home</p>, ErrorBoundary: PageError },
        {
          id: 'contact',
          path: 'lxwm/index',
          handle: handle('contact'),
          loader: () => ({}),
          Component: () => <p>contact</p>,
          ErrorBoundary: PageError,
        },
        { id: 'news', path: 'news/index', handle: handle('news'), loader: () => newsData, Component: NewsPage, ErrorBoundary: PageError },
        {
          id: 'broken',
          path: 'broken',
          Component: () => null,
          loader: () => {
            throw data({ code: 'upstream_unavailable', message: 'down' }, { status: 503 });
          },
          ErrorBoundary: PageError,
        },
        {
          id: 'not-found',
          path: '*',
          Component: () => null,
          loader: () => {
            throw data({ code: 'not_found', message: 'no such page' }, { status: 404 });
          },
          ErrorBoundary: PageError,
        },
      ],
    },
  ];
}

async function render(url: string, layout: PageData<'layout'> | null = layoutData): Promise<Html> {
  const handler = createStaticHandler(routes(layout));
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
  return new Html(html);
}

/** Node has no DOM; a small query over React's (regular, fully quoted) markup is enough here. */
class Html {
  constructor(readonly html: string) {}
  /** Every start tag (with its attributes) that has the given class, and the text up to its end. */
  byClass(className: string): { attrs: Record<string, string>; text: string }[] {
    const out: { attrs: Record<string, string>; text: string }[] = [];
    const re = /<([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>/g;
    for (const m of this.html.matchAll(re)) {
      const attrs: Record<string, string> = {};
      for (const a of m[2]!.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)) attrs[a[1]!] = decode(a[2] ?? '');
      if (!(attrs.class ?? '').split(' ').includes(className)) continue;
      const close = this.html.indexOf(`</${m[1]}>`, m.index + m[0].length);
      const inner = this.html.slice(m.index + m[0].length, close);
      out.push({ attrs, text: decode(inner.replace(/<[^>]+>/g, '')) });
    }
    return out;
  }
}

function decode(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

describe('header', () => {
  it('renders the nine items in order with their links', async () => {
    const links = (await render('/lxwm/index')).byClass('nav-link');
    expect(links.map((l) => l.text)).toEqual([
      '首页',
      '集团简介',
      '患者服务',
      '国内医院',
      '国际医院',
      '专家团队',
      '学术研究',
      '新闻媒体',
      '联系我们',
    ]);
    const hrefs = links.map((l) => decodeURIComponent(l.attrs.href!));
    expect(hrefs).toEqual([
      '/',
      '/jtjj/qywh',
      '/hzhf/tszl?id=5&name=特色治疗',
      '/gnyy/index',
      '/gjws/index',
      '/zjxz/index',
      '/xsyj/xsyj?id=15&name=科研创新',
      '/news/index?id=19&name=集团新闻',
      '/lxwm/index',
    ]);
  });

  it('gives the six panel items closed panels of the right greatest height', async () => {
    const d = await render('/lxwm/index');
    const withPanel = d.byClass('nav-link').filter((l) => l.attrs['aria-controls']);
    expect(withPanel.map((l) => l.text)).toEqual(['集团简介', '患者服务', '国内医院', '国际医院', '学术研究', '新闻媒体']);
    expect(withPanel.every((l) => l.attrs['aria-expanded'] === 'false')).toBe(true);
    const panels = d.byClass('header-panel');
    expect(panels.map((p) => `panel-${p.attrs.id!.slice('panel-'.length)}`)).toEqual(withPanel.map((l) => l.attrs['aria-controls']));
    for (const p of panels) {
      expect(p.attrs['data-open']).toBe('false');
      expect('hidden' in p.attrs).toBe(true);
      // As tall as what it holds, up to the design's height.
      expect(p.attrs.style).toBe(p.attrs.id === 'panel-services' ? 'max-height:300px' : 'max-height:350px');
    }
  });

  it('is transparent on the home page and solid elsewhere', async () => {
    expect((await render('/')).byClass('site-header')[0]!.attrs['data-solid']).toBe('false');
    expect((await render('/lxwm/index')).byClass('site-header')[0]!.attrs['data-solid']).toBe('true');
  });

  it('shows the group name in the logo link and a menu button for phones', async () => {
    const d = await render('/lxwm/index');
    const logo = d.byClass('site-logo')[0]!;
    expect(logo.attrs.href).toBe('/');
    expect(logo.text).toContain('测试眼科集团');
    const toggle = d.byClass('menu-toggle')[0]!;
    expect(toggle.attrs['aria-controls']).toBe('site-nav');
    expect(toggle.attrs['aria-expanded']).toBe('false');
  });
});

describe('footer', () => {
  it('links the categories 15, 16, 19, 20, 21 and shows the contact and copyright', async () => {
    const d = await render('/lxwm/index');
    const footer = d.byClass('site-footer')[0]!;
    const html = d.html.slice(d.html.indexOf('<footer'));
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => decodeURIComponent(decode(m[1]!)));
    for (const id of [15, 16, 19, 20, 21]) {
      expect(hrefs.some((h) => h.includes(`?id=${id}&`))).toBe(true);
    }
    // The number keeps its unit (the two on one line), the space as the content has it.
    expect(footer.text).toContain('测试市测试路 1 号');
    expect(html).toContain('<span class="nobr">1 号</span>');
    expect(footer.text).toContain('400-000-0000');
    expect(footer.text).toContain('© 2004-2024 测试眼科集团 版权所有');
  });

  it('renders without layout data', async () => {
    const d = await render('/lxwm/index', null);
    expect(d.byClass('site-footer')[0]!.text).toContain('© 2004-2024 版权所有');
    expect(d.byClass('nav-link')).toHaveLength(9);
    expect(d.byClass('site-logo')[0]!.text).toBe('返回首页');
  });
});

describe('error states', () => {
  it('shows 页面未找到 for a 404 inside the layout', async () => {
    const d = await render('/no/such/page');
    const state = d.byClass('error-state')[0]!;
    expect(state.text).toContain('页面未找到');
    expect(d.byClass('site-header')).toHaveLength(1);
    expect(d.html).toContain('href="/lxwm/index"');
  });

  it('shows 内容暂时无法加载 and a reload link for a 503', async () => {
    const d = await render('/broken?x=1');
    expect(d.byClass('error-state')[0]!.text).toContain('内容暂时无法加载');
    const reload = d.byClass('btn').find((b) => b.text === '重新加载');
    expect(reload?.attrs.href).toBe('/broken?x=1');
    expect(d.html).not.toMatch(/at \w+ \(|Error:/);
  });
});

describe('news page', () => {
  it('names its category and links the three news tabs and the pages', async () => {
    const d = await render('/news/index?id=20&name=%E5%8C%BB%E9%99%A2%E6%96%B0%E9%97%BB');
    expect(d.byClass('list-title')[0]!.text).toBe('医院新闻');
    const tabs = d.byClass('tab-link');
    expect(tabs.map((t) => t.text)).toEqual(['集团新闻', '医院新闻', '媒体报道']);
    expect(tabs.find((t) => t.attrs['aria-current'])?.text).toBe('医院新闻');
    const pages = d.byClass('page-number').map((p) => decodeURIComponent(p.attrs.href!));
    expect(pages).toEqual([
      '/news/index?id=20&name=医院新闻',
      '/news/index?id=20&name=医院新闻&page=2',
      '/news/index?id=20&name=医院新闻&page=3',
    ]);
  });
});
