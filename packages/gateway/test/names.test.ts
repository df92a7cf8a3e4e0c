import { describe, expect, it } from 'vitest';
import { MountNames } from '../src/index';

describe('MountNames', () => {
  const odd = [
    'file:///notes/a b.txt',
    'file:///%E2%82%AC/%2F?q=1#frag',
    'https://example.com/ünïcødé?x=a+b&y=%20',
    'weather+file:///already/prefixed',
    'urn:isbn:0451450523',
    'data:text/plain;base64,SGVsbG8=',
    'x:',
    'no scheme at all',
    '',
    'custom+scheme.v2-beta://host:8080/{not-a-template}',
  ];

  it('maps every URI back exactly, however odd', () => {
    const names = new MountNames('weather', '_');
    for (const uri of odd) {
      const exposed = names.uri(uri);
      expect(exposed.startsWith('weather+')).toBe(true);
      expect(names.upstreamUri(exposed)).toBe(uri);
    }
  });

  it('turns a namespace into a valid scheme part and refuses one that cannot start a scheme', () => {
    expect(new MountNames('My_Files', '_').uriPrefix).toBe('my-files+');
    expect(new MountNames('', '_').uriPrefix).toBe('');
    expect(new MountNames('x', '_', 'gw-x+').uriPrefix).toBe('gw-x+');
    expect(() => new MountNames('1st', '_')).toThrow(/uriPrefix/);
  });

  it('names tools and prompts <namespace><separator><name>, renames first, nothing added when unnamespaced', () => {
    expect(new MountNames('weather', '_').exposed('forecast', undefined)).toBe('weather_forecast');
    expect(new MountNames('weather', '.').exposed('forecast', undefined)).toBe('weather.forecast');
    expect(new MountNames('weather', '_').exposed('forecast', { forecast: 'sky' })).toBe('sky');
    expect(new MountNames('', '_').exposed('forecast', undefined)).toBe('forecast');
  });

  it('says a URI of another mount is not its own', () => {
    expect(new MountNames('weather', '_').upstreamUri('files+file:///a')).toBeUndefined();
  });
});
