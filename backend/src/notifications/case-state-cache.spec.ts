import { evolve, notesSize, toCaseSummary } from '@alignerflow/domain';
import { E, given, stamp } from '@alignerflow/domain/testing';
import { CaseStateCache } from './case-state-cache';

describe('CaseStateCache', () => {
  it('keeps at most its limit, the least recently used going first', () => {
    const cache = new CaseStateCache(2);
    const [a, b, c] = ['CA-1', 'CA-2', 'CA-3'].map((id) => given(E.created({ id })));
    cache.set('CA-1', a);
    cache.set('CA-2', b);
    expect(cache.get('CA-1')?.id).toBe('CA-1'); // used: CA-2 is now the oldest
    cache.set('CA-3', c);
    expect(cache.size).toBe(2);
    expect(cache.get('CA-2')).toBeUndefined();
    expect(cache.get('CA-1')?.id).toBe('CA-1');
    expect(cache.get('CA-3')?.id).toBe('CA-3');
    cache.delete('CA-1');
    expect(cache.get('CA-1')).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('holds a case without its notes, and evolve gives from it what it gives from the whole case', () => {
    const whole = given(E.created(), E.note('First words.'), E.note('Second words.'), E.approved());
    const cache = new CaseStateCache();
    cache.set(whole.id, whole);
    const held = cache.get(whole.id)!;
    expect(held.notes).toEqual([]);
    expect(held.earlierNotes).toEqual(notesSize(whole));
    expect(held.version).toBe(whole.version);

    const more = stamp([E.note('Third words.'), E.held()]);
    const fromWhole = more.reduce(evolve, whole);
    const fromHeld = more.reduce(evolve, held);
    expect(toCaseSummary(fromHeld)).toEqual(toCaseSummary(fromWhole));
    expect(notesSize(fromHeld)).toEqual(notesSize(fromWhole));
    // The whole case given to set is not changed: the planner may still hand it to alertsFor.
    expect(whole.notes.length).toBeGreaterThan(0);
  });
});
