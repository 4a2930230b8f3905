/** The storage that stands in for AsyncLocalStorage in React's server renderer (production build). */
import { describe, expect, it } from 'vitest';
import { AsyncLocalStorage } from '../server/render/sync-request-storage.js';

describe('sync request storage', () => {
  it('holds the store while run() calls back, nested runs included, and passes the arguments', () => {
    const storage = new AsyncLocalStorage<string>();
    expect(storage.getStore()).toBeUndefined();
    const seen = storage.run('outer', (a: number, b: number) => {
      const inner = storage.run('inner', () => storage.getStore());
      return [storage.getStore(), inner, a + b];
    }, 2, 3);
    expect(seen).toEqual(['outer', 'inner', 5]);
    expect(storage.getStore()).toBeUndefined();
  });

  it('restores the previous store when the callback throws', () => {
    const storage = new AsyncLocalStorage<string>();
    storage.run('outer', () => {
      expect(() => storage.run('inner', () => {
        throw new Error('render failed');
      })).toThrow('render failed');
      expect(storage.getStore()).toBe('outer');
    });
  });
});
