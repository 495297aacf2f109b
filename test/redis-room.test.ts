// waitingForRoom (src/redis/connection.ts) against a client whose command
// queue the test fills and empties by hand, as node-redis's does with
// commandsQueueMaxLength: a call beyond the queue's length is refused with
// a plain Error "The queue is full", before it is sent.
import { describe, expect, it } from 'vitest';
import { waitingForRoom, type Send } from '../src/redis/connection.js';

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** A client with a queue of `length` places: `sent` lists the calls it took, in order; `answer(name)` replies to one. */
function queueOf(length: number) {
  const waiting = new Map<string, (lost?: Error) => void>();
  const sent: string[] = [];
  const send: Send = (_key, _readonly, args) => {
    if (waiting.size >= length) return Promise.reject(new Error('The queue is full'));
    sent.push(args[0]);
    return new Promise((resolve, reject) => waiting.set(args[0], (lost?: Error) => (lost === undefined ? resolve(`${args[0]} answered`) : reject(lost))));
  };
  const answer = async (name: string, lost?: Error): Promise<void> => {
    const reply = waiting.get(name);
    if (reply === undefined) throw new Error(`${name} is not in the queue`);
    waiting.delete(name);
    reply(lost);
    // Let the calls that wait see the answer and be made again.
    await settle();
  };
  return { send, sent, answer };
}

describe('waitingForRoom', () => {
  it('makes a refused call again once another call of the operation is answered', async () => {
    const q = queueOf(1);
    const send = waitingForRoom(q.send);
    const first = send('a', false, ['first']);
    const second = send('b', false, ['second']);
    await settle();
    expect(q.sent).toEqual(['first']);
    await q.answer('first');
    expect(q.sent).toEqual(['first', 'second']);
    await q.answer('second');
    expect(await Promise.all([first, second])).toEqual(['first answered', 'second answered']);
  });

  it('keeps the order of one key\'s calls when a place freed by another caller wakes none of them', async () => {
    const q = queueOf(2);
    const send = waitingForRoom(q.send);
    const replies: Promise<unknown>[] = [send('a', false, ['A1'])];
    const foreign = q.send('x', false, ['foreign']);
    // The queue is full: B1 waits for A1's answer.
    replies.push(send('b', false, ['B1']));
    await settle();
    // The caller's own call is answered: one place is free, and no call of the operation was answered.
    await q.answer('foreign');
    await foreign;
    // A later call of key b does not take that place ahead of B1; a call of another key does.
    replies.push(send('b', false, ['B2']));
    replies.push(send('c', false, ['C1']));
    await settle();
    expect(q.sent).toEqual(['A1', 'foreign', 'C1']);
    await q.answer('A1');
    expect(q.sent).toEqual(['A1', 'foreign', 'C1', 'B1']);
    // B2 waits until B1 is answered, not only sent.
    await q.answer('C1');
    expect(q.sent).toEqual(['A1', 'foreign', 'C1', 'B1']);
    await q.answer('B1');
    expect(q.sent).toEqual(['A1', 'foreign', 'C1', 'B1', 'B2']);
    await q.answer('B2');
    expect(await Promise.all(replies)).toEqual(['A1 answered', 'B1 answered', 'B2 answered', 'C1 answered']);
  });

  it('sends a later call of a key at once after an earlier one of that key was refused for good', async () => {
    const q = queueOf(1);
    const send = waitingForRoom(q.send);
    const foreign = q.send('x', false, ['foreign']);
    await expect(send('a', false, ['A1'])).rejects.toThrow('The queue is full');
    await q.answer('foreign');
    await foreign;
    const later = send('a', false, ['A2']);
    expect(q.sent).toEqual(['foreign', 'A2']);
    await q.answer('A2');
    expect(await later).toBe('A2 answered');
  });

  it('lets the refusal stand when none of the operation\'s calls is in flight, for one call or calls made together', async () => {
    const q = queueOf(1);
    const foreign = q.send('x', false, ['foreign']);
    await expect(waitingForRoom(q.send)('a', false, ['mine'])).rejects.toThrow('The queue is full');
    const send = waitingForRoom(q.send);
    const refused = await Promise.allSettled([send('a', false, ['A']), send('b', false, ['B']), send('a', false, ['A2'])]);
    expect(refused.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.status))).toEqual(Array(3).fill('The queue is full'));
    expect(q.sent).toEqual(['foreign']);
    await q.answer('foreign');
    await foreign;
  });

  it('gives up a waiting call, and the later calls of its key, when a call of the operation gets no answer', async () => {
    const q = queueOf(1);
    const send = waitingForRoom(q.send);
    const first = send('a', false, ['A1']).catch((e: Error) => e);
    const waiting = send('b', false, ['B1']).catch((e: Error) => e);
    await settle();
    const behind = send('b', false, ['B2']).catch((e: Error) => e);
    await settle();
    const lost = Object.assign(new Error('Socket closed unexpectedly'), { name: 'SocketClosedUnexpectedlyError' });
    await q.answer('A1', lost);
    expect(await first).toBe(lost);
    // Neither was sent: each gives up with the refusal that made B1 wait.
    const [refusal, after] = await Promise.all([waiting, behind]);
    expect((refusal as Error).message).toBe('The queue is full');
    expect(after).toBe(refusal);
    expect(q.sent).toEqual(['A1']);
  });

  it('passes other errors through without making the call again', async () => {
    let calls = 0;
    const send = waitingForRoom(() => {
      calls++;
      return Promise.reject(new Error('ERR something else'));
    });
    await expect(send('a', false, ['A'])).rejects.toThrow('ERR something else');
    expect(calls).toBe(1);
  });
});
