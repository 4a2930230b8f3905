/**
 * A visitor's device class (phone, tablet, desktop), from the beacon's User-Agent by ua-parser-js.
 * Parsed per beacon and not remembered (a beacon is one per page view, and parsing costs tens of
 * microseconds). An iPad that asks for the desktop site counts as a desktop, as it says it is one.
 */
import type { IncomingMessage } from 'node:http';
import { UAParser } from 'ua-parser-js';

export type DeviceClass = 'phone' | 'tablet' | 'desktop';

const MAX_UA_LENGTH = 512;

export function deviceClassOf(req: IncomingMessage): DeviceClass {
  const ua = req.headers['user-agent']?.slice(0, MAX_UA_LENGTH);
  if (!ua) return 'desktop';
  const type = new UAParser(ua).getDevice().type;
  return type === 'mobile' || type === 'wearable' ? 'phone' : type === 'tablet' ? 'tablet' : 'desktop';
}
