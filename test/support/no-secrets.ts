import { ApiClient } from './http';

/** Paths of every key in a JSON value whose name mentions a password or a hash. */
export function secretKeys(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => secretKeys(item, `${path}[${index}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(/password|hash/i.test(key) ? [`${path}.${key}`] : []),
    ...secretKeys(item, `${path}.${key}`),
  ]);
}

/**
 * From here on every answer any ApiClient of this test file receives is scanned: a key naming a
 * password or a hash anywhere in a JSON body fails the request that brought it. (Jest gives each
 * test file its own module registry, so this stays within the file that calls it.)
 */
export function failOnSecretsInAnswers(): void {
  const original = ApiClient.prototype.request;
  if ((original as { scanned?: boolean }).scanned) return;
  const scanned = async function (this: ApiClient, ...args: Parameters<ApiClient['request']>) {
    const answer = await original.apply(this, args);
    const leaks = secretKeys(answer.body);
    if (leaks.length) throw new Error(`${args[0]} ${args[1]} answered with secrets at ${leaks.join(', ')}`);
    return answer;
  } as ApiClient['request'];
  (scanned as { scanned?: boolean }).scanned = true;
  ApiClient.prototype.request = scanned;
}
