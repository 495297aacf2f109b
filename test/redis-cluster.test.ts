// RedisBloomFilter on a 3-node Redis Cluster on loopback: adds and checks
// agree with local filters, and MONITOR on every node shows that each batch
// is one script call whose keys, and every key the script touches, sit in
// the slot of its shard's hash tag, on the node that serves that slot. The
// same for RedisSlidingBloomFilter, whose keys all share one hash tag.
import { createClient, createCluster, type RedisClientType, type RedisClusterType } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BloomFilter, SlidingBloomFilter } from '../src/index.js';
import { RedisBloomConfigError, RedisBloomFilter, RedisSlidingBloomFilter, WARNING_TYPE } from '../src/redis/index.js';
import { describeRedis } from './helpers/describe-redis.js';
import { PASSWORD, RedisServer, redisCli } from './helpers/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Double-quoted tokens of a MONITOR line, unescaped enough for key names. */
function tokens(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
}

describeRedis('RedisBloomFilter on a 3-node Redis Cluster', () => {
  let servers: RedisServer[] = [];
  let cluster: RedisClusterType;
  const monitors: RedisClientType[] = [];
  const pokers: RedisClientType[] = [];
  const lines = new Map<number, string[]>();
  let marks = 0;

  /** Waits until every node's MONITOR stream has caught up (an ECHO sent now has shown up in it). */
  async function drain(): Promise<void> {
    const token = `bloomwasm-mark-${++marks}`;
    await Promise.all(pokers.map((p) => p.echo(token)));
    for (let i = 0; [...lines.values()].some((list) => !list.some((l) => l.includes(token))); i++) {
      if (i > 500) throw new Error('MONITOR streams did not catch up');
      await sleep(10);
    }
  }

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) servers.push(await RedisServer.start({ cluster: true }));
    await redisCli(['--cluster', 'create', ...servers.map((s) => `127.0.0.1:${s.port}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const s of servers) {
      for (let i = 0; ; i++) {
        const state = await redisCli(['-p', String(s.port), 'cluster', 'info']);
        if (state.includes('cluster_state:ok')) break;
        if (i > 200) throw new Error(`cluster not ok on ${s.port}:\n${state}`);
        await sleep(50);
      }
    }
    cluster = createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${servers[0].port}` }], defaults: { password: PASSWORD } });
    cluster.on('error', () => {});
    await cluster.connect();
    for (const s of servers) {
      const m: RedisClientType = createClient({ url: s.url });
      m.on('error', () => {});
      await m.connect();
      lines.set(s.port, []);
      await m.monitor((line: string) => lines.get(s.port)!.push(line));
      monitors.push(m);
      const poker: RedisClientType = createClient({ url: s.url });
      poker.on('error', () => {});
      await poker.connect();
      pokers.push(poker);
    }
  });

  afterAll(async () => {
    for (const m of [...monitors, ...pokers]) await m.close().catch(() => {});
    await cluster?.close().catch(() => {});
    for (const s of servers) await s.stop();
    servers = [];
  });

  it('keeps each batch on its shard\'s slot, one script call per shard per batch', async () => {
    const shards = 6;
    const rf = await RedisBloomFilter.reserve(cluster, 'clustered', { bits: 6 * 50_021, hashes: 7 }, { shards, batchSize: 1000 });
    const local = Array.from({ length: shards }, () => new BloomFilter(rf.shardBits, 7));
    const batch = (round: number) => Array.from({ length: 1200 }, (_, i) => `https://cluster.example/${round}/${i}`);
    // Slots and owners: CLUSTER KEYSLOT for the keys, CLUSTER NODES for who serves what.
    const slotOf = new Map<string, number>();
    const keyslot = async (key: string): Promise<number> => {
      if (!slotOf.has(key)) slotOf.set(key, Number(await redisCli(['-p', String(servers[0].port), 'cluster', 'keyslot', key])));
      return slotOf.get(key)!;
    };
    const owner = new Map<number, number>(); // slot -> port
    for (const line of (await redisCli(['-p', String(servers[0].port), 'cluster', 'nodes'])).trim().split('\n')) {
      const fields = line.split(' ');
      const port = Number(fields[1].split(':')[1].split('@')[0]);
      for (const range of fields.slice(8)) {
        const [lo, hi = lo] = range.split('-').map(Number);
        for (let slot = lo; slot <= hi; slot++) owner.set(slot, port);
      }
    }
    const shardPorts = new Set<number>();
    for (let s = 0; s < shards; s++) shardPorts.add(owner.get(await keyslot(`{clustered:${s}}`))!);
    expect(shardPorts.size).toBeGreaterThan(1); // the shards really spread over nodes

    // Warm-up: the first calls on each node meet NOSCRIPT and load the scripts.
    const warm = batch(0);
    expect(await rf.addMany(warm)).toEqual(Uint8Array.from(warm, (x) => Number(local[rf.shardOf(x)].add(x))));
    expect(await rf.hasMany(warm)).toEqual(new Uint8Array(warm.length).fill(1));

    for (let round = 1; round <= 3; round++) {
      await drain();
      for (const list of lines.values()) list.length = 0;
      const items = batch(round);
      const expected = Uint8Array.from(items, (x) => Number(local[rf.shardOf(x)].add(x)));
      expect(await rf.addMany(items)).toEqual(expected);
      expect(await rf.hasMany(items)).toEqual(new Uint8Array(items.length).fill(1));
      const touched = new Set(items.map((x) => rf.shardOf(x)));
      await drain();
      const calls = [...lines.values()].flat().filter((l) => /\] "(evalsha|eval|evalsha_ro|eval_ro)" /i.test(l));
      expect(calls.length).toBe(2 * touched.size); // one add and one has call per shard
      let innerCommands = 0;
      for (const [port, list] of lines) {
        let scriptSlot = -1;
        for (const line of list) {
          const t = tokens(line);
          if (/^(evalsha|eval|evalsha_ro|eval_ro)$/i.test(t[0])) {
            expect(t[2]).toBe('2');
            const [a, b] = [await keyslot(t[3]), await keyslot(t[4])];
            expect(b).toBe(a);
            expect(owner.get(a)).toBe(port);
            expect(t[3]).toMatch(/^\{clustered:\d\}$/);
            scriptSlot = a;
          } else if (line.includes(' lua] ')) {
            // A command run inside the script: its key is in the script's slot.
            expect(await keyslot(t[1])).toBe(scriptSlot);
            innerCommands++;
          }
        }
      }
      expect(innerCommands).toBeGreaterThanOrEqual(3 * 2 * touched.size); // HGET, STRLEN, BITFIELD[_RO] per call
    }
    for (let s = 0; s < shards; s++) expect(await rf.bitArray(s)).toEqual(local[s].bitArray());
    const info = await rf.info();
    expect(info.addedCount).toBe(4 * 1200);
    expect(info.bitsSet).toBe(local.reduce((sum, f) => sum + f.bitsSet(), 0));
    await rf.drop();
  });

  it('keeps a sliding filter on one slot: every script call names all its keys, in the slot of {name}', async () => {
    const window = { window: 700, falsePositiveRate: 0.01 };
    const rf = await RedisSlidingBloomFilter.reserve(cluster, 'sliding-clustered', window, { batchSize: 100 });
    const local = new SlidingBloomFilter(window);
    const slots = new Map<string, number>();
    const keyslot = async (key: string): Promise<number> => {
      if (!slots.has(key)) slots.set(key, Number(await redisCli(['-p', String(servers[0].port), 'cluster', 'keyslot', key])));
      return slots.get(key)!;
    };
    const slot = await keyslot('{sliding-clustered}');
    const batch = (round: number) => Array.from({ length: 300 }, (_, i) => `https://sliding.example/${i % 250}/${round % 3}`);
    // Warm-up: the first calls meet NOSCRIPT and load the scripts.
    expect(await rf.addMany(batch(0))).toEqual(local.addMany(batch(0)));
    expect(await rf.hasMany(batch(0))).toEqual(local.hasMany(batch(0)));
    for (let round = 1; round <= 4; round++) {
      await drain();
      for (const list of lines.values()) list.length = 0;
      const items = batch(round);
      expect(await rf.addMany(items)).toEqual(local.addMany(items)); // 3 rotations a round (c = 100)
      expect(await rf.hasMany(items)).toEqual(local.hasMany(items));
      await drain();
      let calls = 0;
      for (const list of lines.values()) {
        for (const line of list) {
          const t = tokens(line);
          if (/^(evalsha|eval|evalsha_ro|eval_ro)$/i.test(t[0])) {
            expect(t[2]).toBe('9'); // the metadata hash and 8 generation slots
            for (const key of t.slice(3, 12)) expect(await keyslot(key)).toBe(slot);
            calls++;
          } else if (line.includes(' lua] ') && t[1]?.startsWith('{sliding-clustered}')) {
            expect(await keyslot(t[1])).toBe(slot);
          }
        }
      }
      expect(calls).toBe(3 + 3); // 300 items in calls of 100, for the adds and for the reads
    }
    expect((await rf.info()).addCount).toBe(local.addCount);
    await rf.clear();
    expect(await rf.hasMany(batch(1))).toEqual(new Uint8Array(300));
    await rf.drop();
    expect(await cluster.exists('{sliding-clustered}:sliding')).toBe(0);
  });

  it('answers addMany as sequential adds through node clients whose command queue holds one call', async () => {
    // Each node's client refuses a call while another waits for its answer:
    // the refused calls wait for room, and each shard's keep their order.
    const small: RedisClusterType = createCluster({
      rootNodes: [{ url: `redis://127.0.0.1:${servers[0].port}` }], defaults: { password: PASSWORD, commandsQueueMaxLength: 1, disableClientInfo: true },
    });
    small.on('error', () => {});
    await small.connect();
    try {
      const rf = await RedisBloomFilter.reserve(small, 'small-queue', { bits: 60_000, hashes: 7 }, { shards: 6, batchSize: 5 });
      const items = Array.from({ length: 2000 }, (_, i) => `https://small-queue.example/${(i * 7919) % 600}`);
      const local = Array.from({ length: 6 }, () => new BloomFilter(rf.shardBits, 7));
      const expected = items.map((x) => Number(local[rf.shardOf(x)].add(x)));
      expect(Array.from(await rf.addMany(items), Number)).toEqual(expected);
      for (let s = 0; s < 6; s++) expect(await rf.bitArray(s)).toEqual(local[s].bitArray());
      expect(Array.from(await rf.hasMany(items), Number)).toEqual(items.map(() => 1));
      expect((await rf.info()).addedCount).toBe(600);
      await rf.drop();
    } finally {
      await small.close().catch(() => {});
    }
  });

  it('refuses shards left without their configuration, reads the policy on every node, and recreate deletes on every node', async () => {
    const items = Array.from({ length: 600 }, (_, i) => `https://left.example/${i}`);
    const rf = await RedisBloomFilter.reserve(cluster, 'left', { bits: 6000, hashes: 3 }, { shards: 6 });
    await rf.addMany(items);
    await cluster.del('{left}:config');
    await cluster.del('{left:2}');
    const refused = await RedisBloomFilter.reserve(cluster, 'left', { bits: 6000, hashes: 3 }, { shards: 6 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RedisBloomConfigError);
    expect((refused as RedisBloomConfigError).field).toBe('missing');
    expect((refused as Error).message).toMatch(/^cannot reserve filter "left": \{left\}:config, \{left:2\} are missing .*, but \{left:0\}, \{left:0\}:meta, /);
    // The node that serves {left:0} evicts any key: the warning names it.
    let owner: RedisClientType | undefined;
    for (const p of pokers) if (await p.exists('{left:0}').catch(() => -1) === 1) owner = p;
    await owner!.configSet('maxmemory-policy', 'allkeys-lru');
    const warnings: Error[] = [];
    const listener = (w: Error) => (w.name === WARNING_TYPE ? warnings.push(w) : 0);
    process.on('warning', listener);
    try {
      const again = await RedisBloomFilter.reserve(cluster, 'left', { bits: 6000, hashes: 3 }, { shards: 6, recreate: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toHaveLength(1);
      expect(warnings[0].message).toMatch(/^filter "left" may lose keys behind its back: maxmemory-policy is allkeys-lru on the server holding (\S+, )*\{left:0\}/);
      expect((await again.hasMany(items)).every((x) => x === 0)).toBe(true);
      const keys = ['{left}:config', ...Array.from({ length: 6 }, (_, s) => [`{left:${s}}`, `{left:${s}}:meta`]).flat()];
      for (const key of keys) expect(await cluster.exists(key)).toBe(1);
      await expect(rf.hasMany(items)).rejects.toThrow(RedisBloomConfigError);
      await again.drop();
    } finally {
      process.off('warning', listener);
      await owner!.configSet('maxmemory-policy', 'noeviction');
    }
  });
});
