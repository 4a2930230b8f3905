/**
 * The switch of the large-text mode (长者模式): a plain link, so that it works without JavaScript.
 * `GET /text-size?large=1&back=/some/page` remembers the choice in a cookie for a year (`large=0`
 * forgets it) and sends the visitor back to the page, which the server then draws in that mode.
 * Only the server reads the cookie: it is HttpOnly, SameSite=Lax, and Secure when the site's
 * public origin is https (PUBLIC_ORIGIN). The other preferences of 辅助浏览 have a switch of the
 * same kind (a11y-switch.ts).
 */
import type { Request, Response } from 'express';
import { TEXT_SIZE_COOKIE } from '../../shared/constants.js';
import { observe } from '../observability/request-observer.js';

const YEAR_S = 365 * 24 * 3600;

/** A path on this site to go back to; anything else (another host, a scheme) is home. */
export function localPath(back: unknown): string {
  return typeof back === 'string' && /^\/(?![/\\])/.test(back) && !/[\r\n\t]/.test(back) ? back : '/';
}

/** A preference's Set-Cookie line: remembered for a year, or forgotten (`value` undefined). */
export function preferenceCookie(name: string, value: string | undefined, secure: boolean): string {
  const attributes = `SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`;
  return value === undefined ? `${name}=; Path=/; Max-Age=0; ${attributes}` : `${name}=${value}; Path=/; Max-Age=${YEAR_S}; ${attributes}`;
}

/** The switch's handler; `secure`: the cookie is sent over https only. */
export function textSizeSwitch(secure: boolean) {
  return (req: Request, res: Response): void => {
    observe(res, { route: 'text-size' });
    const cookie = preferenceCookie(TEXT_SIZE_COOKIE, req.query.large === '1' ? 'large' : undefined, secure);
    res.set({ 'set-cookie': cookie, 'cache-control': 'no-store' }).redirect(303, localPath(req.query.back));
  };
}
