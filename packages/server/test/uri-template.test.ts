import { describe, expect, it } from 'vitest';
import { UriTemplate, UriTemplateError } from '../src/index';

// RFC 6570 §3.2 example variables.
const vars = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

const expansions: Array<[string, string]> = [
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['X{.var}', 'X.value'],
  ['X{.x,y}', 'X.1024.768'],
  ['X{.list*}', 'X.red.green.blue'],
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var:1,var}', '/v/value'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ['{?empty_keys}', ''],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{var}{?unicode}', 'value?unicode=%C3%A9%F0%9F%98%80'],
];

describe('UriTemplate.expand (RFC 6570 examples)', () => {
  for (const [template, expected] of expansions) {
    it(`${template} → ${expected}`, () => {
      expect(new UriTemplate(template).expand({ ...vars, unicode: 'é😀' })).toBe(expected);
    });
  }
});

describe('UriTemplate.match', () => {
  const cases: Array<[string, string, Record<string, string | string[]> | undefined]> = [
    ['file:///{path}', 'file:///notes.txt', { path: 'notes.txt' }],
    ['file:///{path}', 'file:///a/b.txt', undefined], // simple expansion cannot contain "/"
    ['file:///{+path}', 'file:///a/b.txt', { path: 'a/b.txt' }],
    ['users://{id}/profile', 'users://42/profile', { id: '42' }],
    ['users://{id}/profile', 'users://42/settings', undefined],
    ['users://{id}', 'users://ada%20lovelace', { id: 'ada lovelace' }],
    ['search{?q,lang}', 'search?q=cats&lang=en', { q: 'cats', lang: 'en' }],
    ['search{?q,lang}', 'search?lang=en', { lang: 'en' }],
    ['search{?q,lang}', 'search', {}],
    ['search{?tag*}', 'search?tag=a&tag=b', { tag: ['a', 'b'] }],
    ['repo{/owner,name}', 'repo/mcp/sdk', { owner: 'mcp', name: 'sdk' }],
    ['tree{/path*}', 'tree/a/b/c', { path: ['a', 'b', 'c'] }],
    ['file{.ext}', 'file.txt', { ext: 'txt' }],
    ['map{;x,y}', 'map;x=1;y=2', { x: '1', y: '2' }],
    ['doc{#section}', 'doc#intro', { section: 'intro' }],
    ['list{?page}{&size}', 'list?page=2&size=10', { page: '2', size: '10' }],
    ['x://{a}', 'x://%E0%A4%A', undefined], // undecodable
    ['weird.chars+({id})', 'weird.chars+(7)', { id: '7' }], // literal regex characters
  ];
  for (const [template, uri, expected] of cases) {
    it(`${template} ~ ${uri}`, () => {
      expect(new UriTemplate(template).match(uri)).toEqual(expected);
    });
  }

  it('round-trips what it expands', () => {
    const template = new UriTemplate('books://{author}/{title}{?edition,tags*}');
    const variables = { author: 'le guin', title: 'the dispossessed', edition: '2', tags: ['sf', 'classic'] };
    expect(template.match(template.expand(variables))).toEqual(variables);
    expect(template.variableNames).toEqual(['author', 'title', 'edition', 'tags']);
    expect(template.isTemplate).toBe(true);
    expect(new UriTemplate('plain://uri').isTemplate).toBe(false);
  });
});

describe('UriTemplate errors', () => {
  for (const bad of ['{unclosed', 'close}', '{=reserved}', '{bad name}', '{var:0}', '{var:abc}']) {
    it(`rejects ${bad}`, () => {
      expect(() => new UriTemplate(bad)).toThrow(UriTemplateError);
    });
  }
});
