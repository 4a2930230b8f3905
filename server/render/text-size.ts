/**
 * The switch of the large-text mode (长者模式): a plain link, so that it works without JavaScript.
 * `GET /text-size?large=1&back=/some/page` remembers the choice in a cookie for a year (`large=0`
 * forgets it) and sends the visitor back to the page, which the server then draws in that mode.
 * Only the server reads the cookie: it is HttpOnly, SameSite=Lax, and Secure when the site's
 * public origin is https (PUBLIC_ORIGIN).
 */
import type { Request, Response } from 'express';
import { TEXT_SIZE_COOKIE } from '../../shared/constants.js';
import { observe } from '../observability/request-observer.js';

const YEAR_S = 365 * 24 * 3600;

/** A path on this site to go back to; anything else (another host, a scheme) is home. */
function localPath(back: unknown): string {
  return typeof back === 'string' && /^\/(?![/\\])/.test(back) && !/[\r\n\t]/.test(back) ? back : '/';
}

/** The switch's handler; `secure`: the cookie is sent over https only. */
export function textSizeSwitch(secure: boolean) {
  const attributes = `SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`;
  return (req: Request, res: Response): void => {
    observe(res, { route: 'text-size' });
    const cookie =
      req.query.large === '1'
        ? `${TEXT_SIZE_COOKIE}=large; Path=/; Max-Age=${YEAR_S}; ${attributes}`
        : `${TEXT_SIZE_COOKIE}=; Path=/; Max-Age=0; ${attributes}`;
    res.set({ 'set-cookie': cookie, 'cache-control': 'no-store' }).redirect(303, localPath(req.query.back));
  };
}
