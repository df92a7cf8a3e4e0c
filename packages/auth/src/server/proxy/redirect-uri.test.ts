import { describe, expect, it } from 'vitest';
import { redirectUriMatches, redirectUriProblem } from './redirect-uri';

describe('redirect URIs', () => {
  it('accepts https and loopback http, nothing else', () => {
    expect(redirectUriProblem('https://app.example/cb')).toBeUndefined();
    expect(redirectUriProblem('http://127.0.0.1:8080/cb')).toBeUndefined();
    expect(redirectUriProblem('http://[::1]/cb')).toBeUndefined();
    expect(redirectUriProblem('http://localhost/cb')).toBeUndefined();
    expect(redirectUriProblem('http://app.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('http://127.0.0.1.evil.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://app.example/cb#frag')).toMatch(/fragment/);
    expect(redirectUriProblem('com.example.app:/cb')).toMatch(/https/);
    expect(redirectUriProblem('/relative')).toMatch(/absolute/);
  });

  it('matches exactly, except the port of a loopback URI', () => {
    const registered = ['https://app.example/cb', 'http://127.0.0.1/callback'];
    expect(redirectUriMatches('https://app.example/cb', registered)).toBe(true);
    expect(redirectUriMatches('https://app.example/cb?x=1', registered)).toBe(false);
    expect(redirectUriMatches('https://app.example:8443/cb', registered)).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:61234/callback', registered)).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:61234/other', registered)).toBe(false);
    expect(redirectUriMatches('http://localhost:61234/callback', registered)).toBe(false);
  });
});
