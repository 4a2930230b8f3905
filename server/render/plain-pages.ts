/**
 * Whole documents for the cases where the app cannot or should not render a page: a render that
 * failed (500), a page address that cannot be decoded (400), a preference switch's link it does
 * not know (400), an address refused for another fault of the request (403 and the like:
 * refusal.ts), a process too busy to render now (503, docs/decisions/020), and a client refused a
 * render until its budget's window ends (429, docs/decisions/032). No script and no stylesheet, so they show whatever else is
 * broken and cost nothing to send; readable, in Chinese, with a way back home.
 */
import { TOO_MANY_TITLE, UNAVAILABLE_TITLE } from '../../shared/site/route-table.js';

function plainPage(title: string, heading: string, text: string): string {
  return (
    '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${title}</title></head>` +
    `<body><main><h1>${heading}</h1><p>${text}</p><p><a href="/">返回首页</a></p></main></body></html>`
  );
}

export const UNAVAILABLE_HTML = plainPage(UNAVAILABLE_TITLE, '内容暂时无法加载', '服务暂时不可用，请稍后再试。');

export const BUSY_HTML = plainPage(UNAVAILABLE_TITLE, '访问人数较多', '网站正忙，请稍候几秒再刷新页面。已浏览过的页面仍可正常访问。');

export const BAD_SETTING_HTML = plainPage('设置无法识别', '设置有误', '这个链接里的辅助浏览设置无法识别，什么也没有更改。');

export const BAD_ADDRESS_HTML = plainPage('网址无法识别', '网址有误', '该网址含有无法识别的字符，请检查后重试。');

export const REFUSED_HTML = plainPage('无法访问', '无法访问此网址', '该网址不对外开放，或请求无法处理。请返回首页继续浏览。');

export const TOO_MANY_HTML = plainPage(
  TOO_MANY_TITLE,
  '访问过于频繁',
  '您在短时间内打开了很多新页面，请稍等片刻再试。已浏览过的页面仍可正常访问。',
);
