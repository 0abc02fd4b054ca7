import { isApiPath } from './api-path';

describe('isApiPath: whether a request is an API call, as the router sees paths', () => {
  it('takes the prefix itself and everything under it, whatever the query', () => {
    for (const url of ['/api', '/api/', '/api/cases/1', '/api?x=1', '/api/cases?x=/y'])
      expect(isApiPath(url, '/api')).toBe(true);
  });

  it('matches in any letter case, of the URL and of the prefix', () => {
    expect(isApiPath('/API/Cases', '/api')).toBe(true);
    expect(isApiPath('/lab/api/cases', '/Lab/api')).toBe(true);
  });

  it('decodes escapes as the router does, so an escaped prefix still counts as the API', () => {
    expect(isApiPath('/%61pi/cases/1', '/api')).toBe(true);
    expect(isApiPath('/%41PI', '/api')).toBe(true);
    expect(isApiPath('/%61pix', '/api')).toBe(false);
    // An escape that does not decode leaves the path as it is.
    expect(isApiPath('/api/%E0%A4%A', '/api')).toBe(true);
    expect(isApiPath('/%E0%A4%A/api', '/api')).toBe(false);
  });

  it('leaves out the app: a longer name, a path before the prefix, the prefix only in the query', () => {
    for (const url of ['/', '/apix', '/apis/cases', '/app/api', '/?next=/api', '/api#x'])
      expect(isApiPath(url, '/api')).toBe(false);
    expect(isApiPath('/api/cases', '/lab/api')).toBe(false);
  });
});
