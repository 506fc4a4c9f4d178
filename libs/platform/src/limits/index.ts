export { InMemoryRateBudgets, rateLimited, RedisRateBudgets, takeOrRefuse, type Budget, type RateBudgets, type Taken } from './rate-budgets.js';
