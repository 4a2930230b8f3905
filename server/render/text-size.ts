/**
 * The switch of the large-text mode (长者模式): a plain link, so that it works without JavaScript.
 * `GET /text-size?large=1&back=/some/page` remembers the choice in a cookie for a year (`large=0`
 * remembers 标准版 the same way, which ends the tablet's prompt: docs/decisions/038) and sends the
 * visitor back to the page, which the server then draws in that mode.
 */
import type { Request, Response } from 'express';
import { TEXT_SIZE_COOKIE } from '../../shared/constants.js';
import { observe } from '../observability/request-observer.js';

const YEAR_S = 365 * 24 * 3600;

/** A path on this site to go back to; anything else (another host, a scheme) is home. */
function localPath(back: unknown): string {
  return typeof back === 'string' && /^\/(?![/\\])/.test(back) && !/[\r\n\t]/.test(back) ? back : '/';
}

export function textSizeSwitch(req: Request, res: Response): void {
  observe(res, { route: 'text-size' });
  const large = req.query.large === '1';
  const cookie = `${TEXT_SIZE_COOKIE}=${large ? 'large' : 'standard'}; Path=/; Max-Age=${YEAR_S}; SameSite=Lax`;
  res.set({ 'set-cookie': cookie, 'cache-control': 'no-store' }).redirect(303, localPath(req.query.back));
}
