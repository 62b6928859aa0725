import { describe, expect, it } from 'vitest';
import { maskProxy, parseProxy, unmaskProxy } from '../../server/src/proxies/value';

describe('parseProxy', () => {
  it.each([
    ['10.0.0.1:8080', '10.0.0.1:8080'],
    ['Proxy.Example.com:3128', 'proxy.example.com:3128'],
    ['HTTP://proxy.example.com:80', 'http://proxy.example.com:80'],
    ['https://user:p%40ss@1.2.3.4:443', 'https://user:p%40ss@1.2.3.4:443'],
    ['socks5://alice:s3cret@[::1]:1080', 'socks5://alice:s3cret@[::1]:1080'],
    ['  socks5://h:1  ', 'socks5://h:1'],
  ])('accepts %s', (input, value) => {
    expect(parseProxy(input)).toEqual({ ok: true, value });
  });

  it.each(['', 'proxy.example.com', 'ftp://h:21', 'http://h', 'h:0', 'h:70000', '256.1.1.1:80', 'http://user@h:80', 'http://:p@h:80', 'http://h:80/path', 'a b:80', 'socks4://h:1080', 'http://u:p@x@h:80'])(
    'refuses %s with the reason invalid proxy',
    (input) => {
      const r = parseProxy(input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toBe('invalid proxy');
    },
  );
});

describe('masking', () => {
  it('hides the password only', () => {
    expect(maskProxy('http://user:secret@h:80')).toBe('http://user:****@h:80');
    expect(maskProxy('h:80')).toBe('h:80');
    expect(maskProxy('socks5://h:1080')).toBe('socks5://h:1080');
  });

  it('a masked password sent back keeps the stored one, also with another host', () => {
    expect(unmaskProxy('http://user:****@h:80', 'http://user:secret@h:80')).toBe('http://user:secret@h:80');
    expect(unmaskProxy('http://user:****@other:81', 'http://user:secret@h:80')).toBe('http://user:secret@other:81');
    expect(unmaskProxy('http://user:new@h:80', 'http://user:secret@h:80')).toBe('http://user:new@h:80');
    expect(unmaskProxy('h:81', 'h:80')).toBe('h:81');
  });
});
