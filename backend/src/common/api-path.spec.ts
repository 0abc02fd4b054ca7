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

  it('leaves out the app: a longer name, a path before the prefix, the prefix only in the query', () => {
    for (const url of ['/', '/apix', '/apis/cases', '/app/api', '/?next=/api', '/api#x'])
      expect(isApiPath(url, '/api')).toBe(false);
    expect(isApiPath('/api/cases', '/lab/api')).toBe(false);
  });
});
