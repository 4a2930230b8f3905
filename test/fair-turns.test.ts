/**
 * Fair turns (server/http/fair-turns.ts, docs/decisions/032): a client starts at most its share of
 * requests in one turn of the event loop; the rest wait for the next turns, in order, while another
 * client's request in the same turn starts at once. Requests here are what the front door reads of
 * one: the peer's address and the forwarding header.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FairTurns } from '../server/http/fair-turns.js';
import { TrustedProxies } from '../server/http/trusted-proxies.js';

const from = (address: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: address }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }) as unknown as IncomingMessage;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('fair turns', () => {
  it('start a client’s share at once and the rest in the next turns, in order, while another client starts at once', async () => {
    const turns = new FairTurns(2, new TrustedProxies([]));
    const started: string[] = [];
    for (let i = 1; i <= 5; i++) turns.take(from('10.0.0.1'), () => started.push(`a${i}`));
    turns.take(from('10.0.0.2'), () => started.push('b1'));
    expect(started).toEqual(['a1', 'a2', 'b1']);
    await nextTurn();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
    // What arrives for a client that has requests waiting waits behind them.
    turns.take(from('10.0.0.1'), () => started.push('a6'));
    await nextTurn();
    expect(started.slice(5)).toEqual(['a5', 'a6']);
  });

  it('tell the clients behind a trusted proxy apart, and can be turned off', async () => {
    const turns = new FairTurns(1, new TrustedProxies(['127.0.0.1']));
    const started: string[] = [];
    turns.take(from('127.0.0.1', '203.0.113.7'), () => started.push('x1'));
    turns.take(from('127.0.0.1', '203.0.113.8'), () => started.push('y1'));
    turns.take(from('127.0.0.1', '203.0.113.7'), () => started.push('x2'));
    expect(started).toEqual(['x1', 'y1']);
    await nextTurn();
    expect(started).toEqual(['x1', 'y1', 'x2']);

    const off = new FairTurns(0, new TrustedProxies([]));
    const all: number[] = [];
    for (let i = 0; i < 50; i++) off.take(from('10.0.0.1'), () => all.push(i));
    expect(all).toHaveLength(50);
  });
});
