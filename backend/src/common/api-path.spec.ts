import { isApiPath, pathAfterApiPrefix } from './api-path';

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

describe('pathAfterApiPrefix: the path a request asks for under the API prefix', () => {
  it('gives the plain path after the prefix', () => {
    expect(pathAfterApiPrefix('/api/health', '/api')).toBe('/health');
    expect(pathAfterApiPrefix('/api/cases/CA-2024-077/history', '/api')).toBe('/cases/ca-2024-077/history');
  });

  it('decodes escapes and lower-cases, in the prefix and after it, as the router reads the path', () => {
    expect(pathAfterApiPrefix('/api/%68ealth', '/api')).toBe('/health');
    expect(pathAfterApiPrefix('/%61pi/C%6Fnfig', '/api')).toBe('/config');
    expect(pathAfterApiPrefix('/Lab/API/%48EALTH', '/lab/api')).toBe('/health');
    // An escape that does not decode leaves the path as it is, lower-cased.
    expect(pathAfterApiPrefix('/api/%E0%A4%A', '/api')).toBe('/%e0%a4%a');
  });

  it('drops the query, escaped or not', () => {
    expect(pathAfterApiPrefix('/api/health?x=1', '/api')).toBe('/health');
    expect(pathAfterApiPrefix('/api/%68ealth?next=/api/cases%3F', '/api')).toBe('/health');
    expect(pathAfterApiPrefix('/api?x=/health', '/api')).toBe('');
  });

  it('keeps a trailing slash, for the caller to read as the router does', () => {
    expect(pathAfterApiPrefix('/api/config/', '/api')).toBe('/config/');
    expect(pathAfterApiPrefix('/api/', '/api')).toBe('/');
  });

  it('gives the empty path for the prefix itself', () => {
    expect(pathAfterApiPrefix('/api', '/api')).toBe('');
    expect(pathAfterApiPrefix('/%41PI', '/api')).toBe('');
  });

  it('gives null for a URL that is not under the prefix, as isApiPath answers false', () => {
    for (const url of ['/', '/apix', '/%61pix', '/app/api/health', '/?next=/api/health', '/api#x'])
      expect([url, pathAfterApiPrefix(url, '/api')]).toEqual([url, null]);
    expect(pathAfterApiPrefix('/api/health', '/lab/api')).toBe(null);
  });
});
