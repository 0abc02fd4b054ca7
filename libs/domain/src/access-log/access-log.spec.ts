import { parseAccessLogFilter } from './access-log.js';

describe('parseAccessLogFilter', () => {
  it('keeps the filters given and leaves out empty ones', () => {
    expect(
      parseAccessLogFilter({ username: ' dr.lee ', action: 'view', from: '2026-01-01', to: '' }),
    ).toEqual({
      filter: { username: 'dr.lee', action: 'view', from: '2026-01-01' },
    });
    expect(parseAccessLogFilter({})).toEqual({ filter: {} });
  });

  it('refuses an unknown action, a malformed day and a reversed range', () => {
    expect(parseAccessLogFilter({ action: 'edit' })).toEqual({
      error: 'action must be one of view, download, print, export (got "edit").',
    });
    expect(parseAccessLogFilter({ from: '2026-13-01' })).toEqual({
      error: 'from must be a date as YYYY-MM-DD (got "2026-13-01").',
    });
    expect(parseAccessLogFilter({ from: '2026-02-02', to: '2026-02-01' })).toEqual({
      error: 'from must be on or before to.',
    });
  });
});
