import { addressGroup } from './client-address';

describe('addressGroup: the part of a client address that one client controls', () => {
  it('keeps an IPv4 address whole, also when written as IPv6', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('203.0.113.8')).not.toBe(addressGroup('203.0.113.7'));
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const group = addressGroup('2001:db8:85a3:1:aaaa:bbbb:cccc:dddd');
    expect(group).toBe('2001:db8:85a3:1::/64');
    for (const same of [
      '2001:0db8:85a3:0001::1',
      '2001:DB8:85A3:1:ffff::',
      '2001:db8:85a3:1:0:0:0:2',
      '2001:db8:85a3:1::10.0.0.1',
    ])
      expect(addressGroup(same)).toBe(group);
    expect(addressGroup('2001:db8:85a3:2::1')).not.toBe(group);
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
