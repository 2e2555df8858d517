// Where the service runs. A module of its own, free of Node's APIs, so the store's table types (read by the
// compiler alone in test/server/store-schema.test.ts) and every domain module can name it without the config.

/** `sandbox` (the sandbox's rail and bank settle) or `production` (none does). Every event carries it, so a
 * registration of one environment never hears of the other's money. */
export type Environment = 'sandbox' | 'production';
