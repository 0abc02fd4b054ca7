import { can, type Role } from '@alignerflow/domain';
import { api, isNetworkError } from './client';
import { cache } from './cache';

/** Runs a read; a server that cannot be reached marks the cache offline instead of failing. */
async function read(load: () => Promise<void>): Promise<boolean> {
  try {
    await load();
    cache.markSynced();
    return true;
  } catch (error) {
    if (isNetworkError(error)) {
      cache.setOffline(true);
      return false;
    }
    throw error;
  }
}

export function loadCases(): Promise<boolean> {
  return read(async () => {
    const answer = await api.cases(cache.get().casesEtag);
    if (!answer.notModified) cache.setCases(answer.data, answer.etag);
  });
}

export function loadUsers(): Promise<boolean> {
  return read(async () => {
    const answer = await api.users(cache.get().usersEtag);
    if (!answer.notModified) cache.setUsers(answer.data, answer.etag);
  });
}

export function loadDashboard(): Promise<boolean> {
  return read(async () => cache.setDashboard(await api.dashboard()));
}

/** My Queue (staff only: a Doctor has none). */
export function loadWorkQueue(): Promise<boolean> {
  return read(async () => cache.setWorkQueue(await api.workQueue()));
}

/** Everything the role may read: doctors read only their cases. */
export async function loadAll(role: Role): Promise<boolean> {
  const loads = [loadCases()];
  if (can(role, 'listUsers')) loads.push(loadUsers());
  if (can(role, 'viewDashboard')) loads.push(loadDashboard());
  if (can(role, 'viewWorkQueue')) loads.push(loadWorkQueue());
  const results = await Promise.allSettled(loads);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  return results.every((result) => result.status === 'fulfilled' && result.value);
}
