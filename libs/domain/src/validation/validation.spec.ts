import {
  addDays,
  checkLink,
  checkText,
  isFileUrl,
  formatFileSize,
  formatPrice,
  isHttpUrl,
  isIsoDate,
  LIMITS,
  parseDecimal,
  parseInteger,
} from './validation.js';

describe('parseDecimal: numbers and numeric strings; empty or non-numeric is absent (spec section 5)', () => {
  it.each<[unknown, number | undefined]>([
    [12, 12],
    [12.5, 12.5],
    [0, 0],
    [-3, -3],
    ['99.90', 99.9],
    ['  1200.50 ', 1200.5],
    ['1200', 1200],
    ['+7', 7],
    ['-7.25', -7.25],
    ['.5', 0.5],
    ['5.', 5],
    ['abc', undefined],
    ['', undefined],
    ['   ', undefined],
    ['12abc', undefined],
    ['1e3', undefined],
    ['0x10', undefined],
    ['1,5', undefined],
    ['Infinity', undefined],
    [Infinity, undefined],
    [NaN, undefined],
    [null, undefined],
    [undefined, undefined],
    [true, undefined],
    [{}, undefined],
    [[1], undefined],
  ])('parseDecimal(%j) → %j', (value, expected) => {
    expect(parseDecimal(value)).toBe(expected);
  });
});

describe('parseInteger: integers and integer strings; anything else is absent', () => {
  it.each<[unknown, number | undefined]>([
    [20, 20],
    [0, 0],
    [-1, -1],
    ['20', 20],
    [' 18 ', 18],
    ['+4', 4],
    ['-4', -4],
    [1.5, undefined],
    ['1.5', undefined],
    ['20 sheets', undefined],
    ['abc', undefined],
    ['', undefined],
    ['  ', undefined],
    [NaN, undefined],
    [Infinity, undefined],
    [null, undefined],
    [undefined, undefined],
    [false, undefined],
    [[3], undefined],
  ])('parseInteger(%j) → %j', (value, expected) => {
    expect(parseInteger(value)).toBe(expected);
  });
});

describe('isHttpUrl: http(s) only', () => {
  it.each<[string, boolean]>([
    ['https://sim.example.com/case/1', true],
    ['http://localhost:8080/video.mp4', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['ftp://files.example.com/a', false],
    ['javascript:alert(1)', false],
    ['data:text/html,hi', false],
    ['mailto:a@b.c', false],
    ['example.com/video', false],
    ['/relative/path', false],
    ['', false],
    ['not a url', false],
    [`https://example.com/${'a'.repeat(LIMITS.url)}`, false],
  ])('isHttpUrl(%j) → %s', (value, expected) => {
    expect(isHttpUrl(value)).toBe(expected);
  });
});

describe('isIsoDate: an existing calendar date YYYY-MM-DD', () => {
  it.each<[string, boolean]>([
    ['2025-03-10', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-04-31', false],
    ['2025-3-10', false],
    ['10/03/2025', false],
    ['2025-03-10T00:00:00Z', false],
    ['', false],
  ])('isIsoDate(%j) → %s', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });
});

describe('addDays (UTC calendar days)', () => {
  it.each<[string, number, string]>([
    ['2025-03-10T09:00:00.000Z', 14, '2025-03-24'],
    ['2025-12-25T23:59:59.000Z', 14, '2026-01-08'],
    ['2024-02-20T00:00:00.000Z', 14, '2024-03-05'],
    ['2025-02-20', 14, '2025-03-06'],
    ['2025-03-10T09:00:00.000Z', 0, '2025-03-10'],
    ['2025-03-10T09:00:00.000Z', -10, '2025-02-28'],
  ])('addDays(%s, %i) → %s', (from, days, expected) => {
    expect(addDays(from, days)).toBe(expected);
  });
});

describe('checkText: trimmed text or why not', () => {
  it.each<
    [string, unknown, { required?: boolean; max?: number } | undefined, { value: string } | { error: string }]
  >([
    ['trims', '  Jane Doe  ', undefined, { value: 'Jane Doe' }],
    ['absent optional is empty', undefined, undefined, { value: '' }],
    ['null optional is empty', null, undefined, { value: '' }],
    ['absent required', undefined, { required: true }, { error: 'Name is required.' }],
    ['null required', null, { required: true }, { error: 'Name is required.' }],
    ['blank required', '   ', { required: true }, { error: 'Name is required.' }],
    ['blank optional is empty', '   ', undefined, { value: '' }],
    ['a number is not text', 42, undefined, { error: 'Name must be text.' }],
    ['an object is not text', { a: 1 }, { required: true }, { error: 'Name must be text.' }],
    ['default max is the name limit', 'a'.repeat(LIMITS.name), undefined, { value: 'a'.repeat(200) }],
    [
      'over the default max',
      'a'.repeat(LIMITS.name + 1),
      undefined,
      { error: 'Name must be at most 200 characters.' },
    ],
    ['over a given max', 'abcdef', { max: 5 }, { error: 'Name must be at most 5 characters.' }],
    ['max counts the trimmed text', '  abcde  ', { max: 5 }, { value: 'abcde' }],
    ['control characters refused', 'a\u0000b', undefined, { error: 'Name contains invalid characters.' }],
    ['escape refused', 'a\u001bb', undefined, { error: 'Name contains invalid characters.' }],
    [
      'tab and newlines allowed',
      'line 1\n\tline 2\r\nline 3',
      undefined,
      { value: 'line 1\n\tline 2\r\nline 3' },
    ],
  ])('%s', (_label, value, options, expected) => {
    expect(checkText('Name', value, options)).toEqual(expected);
  });
});

describe('display formats (spec section 9)', () => {
  it.each<[number, string]>([
    [0, '0.00 MB'],
    [1024 * 1024, '1.00 MB'],
    [1_289_748, '1.23 MB'],
    [512 * 1024, '0.50 MB'],
  ])('formatFileSize(%i) → %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it.each<[number | null | undefined, string]>([
    [1200, '$1200.00'],
    [99.9, '$99.90'],
    [0, '$0.00'],
    [null, 'N/A'],
    [undefined, 'N/A'],
  ])('formatPrice(%j) → %s', (price, text) => {
    expect(formatPrice(price)).toBe(text);
  });
});

describe('links and file urls (the commands and the restore use the same checks)', () => {
  it.each<[string, unknown, { value: string } | { error: string }]>([
    ['empty', '', { value: '' }],
    ['absent', undefined, { value: '' }],
    ['https', ' https://viewer.example/plan/1 ', { value: 'https://viewer.example/plan/1' }],
    ['http', 'http://viewer.example/', { value: 'http://viewer.example/' }],
    ['javascript:', 'javascript:alert(1)', { error: 'Link must be an http(s) URL.' }],
    ['data:', 'data:text/html,<script>alert(1)</script>', { error: 'Link must be an http(s) URL.' }],
    ['relative', '/api/files/x', { error: 'Link must be an http(s) URL.' }],
    ['too long', `https://x.example/${'a'.repeat(2048)}`, { error: 'Link must be at most 2048 characters.' }],
    ['not text', 42, { error: 'Link must be text.' }],
  ])('checkLink: %s', (_label, value, expected) => {
    expect(checkLink('Link', value)).toEqual(expected);
  });

  it.each<[string, boolean]>([
    ['https://files.example/scan.stl', true],
    ['/api/files/abc/scan.stl', true],
    ['javascript:alert(1)', false],
    ['data:text/html;base64,PHNjcmlwdD4=', false],
    ['//evil.example/x', false],
    ['/path with space', false],
    ['ftp://files.example/x', false],
  ])('isFileUrl(%j) → %s', (value, expected) => {
    expect(isFileUrl(value)).toBe(expected);
  });
});
