/**
 * bloomwasm/redis: one Bloom filter shared by many processes through Redis
 * (plain Redis 7 or Redis Cluster, no module), hashed locally in WebAssembly.
 * Node-only; needs the `redis` package (node-redis v5) as a peer.
 */
export { RedisBloomFilter, type Item, type Items, type OpenOptions, type RedisBloomInfo, type ReserveOptions, type Sizing } from './filter.js';
export { RedisBloomAuthError, RedisBloomBatchError, RedisBloomConfigError, type BatchOutcome } from './errors.js';
export type { RedisClientLike, RedisClusterLike, RedisConnection } from './connection.js';
export { MAX_SHARD_BITS } from './layout.js';
