import { Injectable } from '@nestjs/common';
import { SIGN_IN_FAILURE_LIMIT, SIGN_IN_WINDOW_MS } from '@alignerflow/domain';
import { AttemptLimiter } from '../../security/attempt-limiter.js';

/**
 * One client address (an IPv4 address or an IPv6 /64) may fail this often within ADDRESS_WINDOW_MS
 * for any usernames: a lab's whole staff mistyping behind one address stays far below it, while
 * a password sprayer is stopped after a handful of tries per account.
 */
export const ADDRESS_FAILURE_LIMIT = 20;
export const ADDRESS_WINDOW_MS = 15 * 60 * 1000;
/**
 * One username may fail this often within USERNAME_WINDOW_MS from all addresses together (a
 * botnet guessing one account from many addresses), except from a browser that holds the user's
 * known-device cookie: the owner still signs in while someone else guesses.
 */
export const USERNAME_FAILURE_LIMIT = 30;
export const USERNAME_WINDOW_MS = 60 * 60 * 1000;

interface Rule {
  key: string;
  limit: number;
  windowMs: number;
  /** What a success does to the rule's count: forget the pair's failures, or take back this attempt. */
  onSuccess: 'clear' | 'release';
}

/** The verdict on one sign-in attempt; `settle` it once the password was judged. */
export type Admission =
  | { allowed: true; rules: Rule[] }
  | { allowed: false; retryAfterSeconds: number; rule: 'pair' | 'address' | 'username' };

/**
 * The three sign-in limits of api.md (Security and Accounts), counted in the database so every API
 * process agrees. Each attempt is counted before the password is verified, so parallel guesses
 * cannot slip past a limit and a refused attempt costs no argon2 work; a success clears the
 * (username, address) pair's failures and takes its own attempt back from the other two counts.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly limiter: AttemptLimiter) {}

  async admit(username: string, addressGroup: string, knownDevice: boolean): Promise<Admission> {
    const name = username.trim().toLowerCase();
    const rules: (Rule & { name: 'pair' | 'address' | 'username' })[] = [
      {
        name: 'pair',
        // The key of the original rule, kept so that counts survive an upgrade.
        key: `sign-in:${name}|${addressGroup}`,
        limit: SIGN_IN_FAILURE_LIMIT,
        windowMs: SIGN_IN_WINDOW_MS,
        onSuccess: 'clear',
      },
      {
        name: 'address',
        key: `sign-in-address:${addressGroup}`,
        limit: ADDRESS_FAILURE_LIMIT,
        windowMs: ADDRESS_WINDOW_MS,
        onSuccess: 'release',
      },
      ...(knownDevice
        ? []
        : [
            {
              name: 'username' as const,
              key: `sign-in-user:${name}`,
              limit: USERNAME_FAILURE_LIMIT,
              windowMs: USERNAME_WINDOW_MS,
              onSuccess: 'release' as const,
            },
          ]),
    ];
    const counted: Rule[] = [];
    for (const rule of rules) {
      const verdict = await this.limiter.consume(rule.key, rule.limit, rule.windowMs);
      if (!verdict.allowed) {
        // A refused attempt is no failure: the counts of the rules that let it pass take it back.
        for (const earlier of counted) await this.limiter.release(earlier.key);
        return { allowed: false, retryAfterSeconds: verdict.retryAfterSeconds, rule: rule.name };
      }
      counted.push(rule);
    }
    return { allowed: true, rules: counted };
  }

  /** After the password was judged: a failure stays counted everywhere; a success is taken back. */
  async settle(admission: Admission, succeeded: boolean): Promise<void> {
    if (!admission.allowed || !succeeded) return;
    for (const rule of admission.rules)
      await (rule.onSuccess === 'clear' ? this.limiter.clear(rule.key) : this.limiter.release(rule.key));
  }
}
