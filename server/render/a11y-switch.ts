/**
 * The switch of 辅助浏览's other preferences (docs/decisions/066): plain links, as the text size's
 * (text-size.ts), so that each works without JavaScript and the server draws the next page with it.
 * - `GET /a11y?theme=contrast|plain|auto&back=…`: the high-contrast theme on, off, or left to the
 *   system's contrast preference (the cookie forgotten);
 * - `GET /a11y?cursor=large|normal&back=…`: the large cursor on or off;
 * - `GET /a11y?reset=1&back=…`: every preference forgotten, the large text's too.
 * Each answers 303 to `back` (a path on this site, else home). A value it does not know, or a
 * request that names nothing to change, is refused (400) and changes nothing.
 */
import type { Request, Response } from 'express';
import { CURSOR_COOKIE, TEXT_SIZE_COOKIE, THEME_COOKIE } from '../../shared/constants.js';
import { observe } from '../observability/request-observer.js';
import { BAD_SETTING_HTML } from './plain-pages.js';
import { localPath, preferenceCookie } from './text-size.js';

/** What each accepted value of a parameter stores in its cookie (undefined: forgotten). */
const SETTINGS: Readonly<Record<'theme' | 'cursor', { cookie: string; values: Readonly<Record<string, string | undefined>> }>> = {
  theme: { cookie: THEME_COOKIE, values: { contrast: 'contrast', plain: 'plain', auto: undefined } },
  cursor: { cookie: CURSOR_COOKIE, values: { large: 'large', normal: undefined } },
};

/** The Set-Cookie lines a request asks for, or undefined when it asks for nothing or for something unknown. */
function cookiesFor(query: Request['query'], secure: boolean): string[] | undefined {
  if (query.reset !== undefined) {
    return query.reset === '1'
      ? [TEXT_SIZE_COOKIE, THEME_COOKIE, CURSOR_COOKIE].map((name) => preferenceCookie(name, undefined, secure))
      : undefined;
  }
  const lines: string[] = [];
  for (const [param, { cookie, values }] of Object.entries(SETTINGS)) {
    const value = query[param];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !Object.hasOwn(values, value)) return undefined;
    lines.push(preferenceCookie(cookie, values[value], secure));
  }
  return lines.length > 0 ? lines : undefined;
}

/** The switch's handler; `secure`: the cookies are sent over https only. */
export function a11ySwitch(secure: boolean) {
  return (req: Request, res: Response): void => {
    observe(res, { route: 'a11y' });
    const cookies = cookiesFor(req.query, secure);
    if (!cookies) {
      res.status(400).set('cache-control', 'no-store').type('html').send(BAD_SETTING_HTML);
      return;
    }
    res.set({ 'set-cookie': cookies, 'cache-control': 'no-store' }).redirect(303, localPath(req.query.back));
  };
}
