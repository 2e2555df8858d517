// A setup file of the fast tier: console users' passwords are hashed with scrypt at N = 2^10 rather than the
// deployment's 2^15 (server/domain/console/passwords.ts). At 2^15 each hash or sign-in cost about 90 ms of CPU, and
// the tier made about 180 of them; no fast test measures the cost. The slow tier keeps the deployment's cost, and its
// admin CLI suite checks that a created user's hash has it.
import { setPasswordCostForTests } from '../../server/domain/console/passwords.js';

setPasswordCostForTests({ N: 2 ** 10, r: 8, p: 1 });
