/**
 * bloomwasm/redis: one Bloom filter shared by many processes through Redis
 * (plain Redis 7 or Redis Cluster, no module), hashed locally in WebAssembly.
 * Node-only; needs the `redis` package (node-redis v5) as a peer.
 */
export { RedisBloomFilter, type RedisBloomInfo } from './filter.js';
export type { EvictionMode, OpenOptions, ReserveOptions, Sizing } from './config.js';
export { EVICTION_WARNING, UNCHECKED_WARNING, WARNING_TYPE } from './eviction.js';
export type { BatchItems, Item, PackedItems } from '../filter/items.js';
export {
  NO_ANSWER, RedisBloomAuthError, RedisBloomBatchError, RedisBloomConfigError, RedisBloomConnectionError, type BatchCall, type BatchOutcome,
} from './errors.js';
export type { RedisClientLike, RedisClusterLike, RedisConnection } from './connection.js';
export { MAX_SHARD_BITS } from './layout.js';
export {
  RedisSlidingBloomFilter, type RedisSlidingGeneration, type RedisSlidingInfo, type SlidingReserveOptions,
} from './sliding.js';
export type { SlidingOptions, SlidingShape } from '../sliding/shape.js';
