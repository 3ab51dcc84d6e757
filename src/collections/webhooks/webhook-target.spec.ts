import { LookupAddress } from 'node:dns';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadConfig } from '../../core/config/app-config';
import { WebhookSender } from './webhook-sender';
import {
  checkWebhookFields,
  isPublicAddress,
  isPublicTarget,
  PUBLIC_TARGET_MESSAGE,
  publicOnlyLookup,
  RefusedTargetError,
  refusedTarget,
  targetHost,
} from './webhook-target';

const NOT_PUBLIC = [
  '127.0.0.1', // loopback
  '127.255.0.9',
  '10.0.0.1', // RFC 1918
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254', // link-local: cloud metadata
  '100.64.0.1', // carrier-grade NAT
  '0.0.0.0', // unspecified ("this host")
  '0.1.2.3',
  '224.0.0.1', // multicast
  '255.255.255.255', // broadcast
  '192.0.2.1', // documentation
  '198.18.0.1', // benchmarking
  '240.0.0.1', // reserved
  '::1',
  '::',
  '::ffff:127.0.0.1', // IPv4-mapped
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::7f00:1', // IPv4-compatible (deprecated): ::127.0.0.1
  '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  'fc00::1', // unique local
  'fd12:3456::1',
  'fe80::1', // link-local
  'fec0::1', // site-local (deprecated)
  'ff02::1', // multicast
  '2001:db8::1', // documentation
  '4000::1', // outside the global unicast block 2000::/3
  'not-an-address',
];
const PUBLIC = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'];

describe('isPublicAddress', () => {
  it.each(NOT_PUBLIC)('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(PUBLIC)('%s is public', (address) => expect(isPublicAddress(address)).toBe(true));
});

describe('targetHost: the host as the socket sees it', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://127.1:6379/', '127.0.0.1'],
    ['http://user:pass@10.0.0.1/', '10.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['https://[::1]:8443/x', '::1'],
    ['HTTPS://Hooks.Example.COM/x', 'hooks.example.com'],
  ])('%s -> %s', (url, host) => expect(targetHost(url)).toBe(host));
  it.each(['ftp://93.184.216.34/', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_', 'not a url', 'http://'])(
    '%s has no http(s) host',
    (url) => expect(targetHost(url)).toBeUndefined(),
  );
});

describe('isPublicTarget (create and update)', () => {
  const resolver = (answers: Record<string, string[]>) => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      if (!answers[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return answers[host];
    };
    return { asked, resolve };
  };

  it('judges IP literals without resolving them', async () => {
    const { asked, resolve } = resolver({});
    expect(await isPublicTarget('http://93.184.216.34/hook', resolve)).toBe(true);
    expect(await isPublicTarget('https://[2606:4700:4700::1111]/hook', resolve)).toBe(true);
    expect(await isPublicTarget('http://169.254.169.254/latest/meta-data/', resolve)).toBe(false);
    expect(await isPublicTarget('http://[::ffff:127.0.0.1]/', resolve)).toBe(false);
    expect(await isPublicTarget('http://0x7f.1/', resolve)).toBe(false);
    expect(asked).toEqual([]);
  });

  it('a name must resolve, and to public addresses only', async () => {
    const { asked, resolve } = resolver({
      'public.test': ['93.184.216.34', '2606:4700:4700::1111'],
      'mixed.test': ['93.184.216.34', '10.0.0.1'],
      'metadata.test': ['169.254.169.254'],
      'empty.test': [],
    });
    expect(await isPublicTarget('https://public.test/hook', resolve)).toBe(true);
    expect(await isPublicTarget('https://mixed.test/hook', resolve)).toBe(false);
    expect(await isPublicTarget('http://metadata.test/', resolve)).toBe(false);
    expect(await isPublicTarget('http://empty.test/', resolve)).toBe(false);
    expect(await isPublicTarget('http://unknown.test/', resolve)).toBe(false);
    expect(asked).toEqual(['public.test', 'mixed.test', 'metadata.test', 'empty.test', 'unknown.test']);
  });

  it('is not http(s): refused before any lookup', async () => {
    const { asked, resolve } = resolver({ 'public.test': ['93.184.216.34'] });
    expect(await isPublicTarget('ftp://public.test/', resolve)).toBe(false);
    expect(asked).toEqual([]);
  });

  it('checkWebhookFields: the contract message, nothing to say without a targetUrl or with the flag', async () => {
    const strict = loadConfig({});
    const open = loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    expect(await checkWebhookFields({ targetUrl: 'http://10.0.0.1/' }, strict)).toEqual([PUBLIC_TARGET_MESSAGE]);
    expect(await checkWebhookFields({ targetUrl: 'http://93.184.216.34/' }, strict)).toEqual([]);
    expect(await checkWebhookFields({ description: 'no target' }, strict)).toEqual([]);
    expect(await checkWebhookFields({ targetUrl: 'http://10.0.0.1/' }, open)).toEqual([]);
  });
});

describe('publicOnlyLookup (delivery: the address the socket connects to)', () => {
  type Answer = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
  const fakeDns =
    (addresses: LookupAddress[]) =>
    (_host: string, _options: object, callback: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
      callback(null, addresses);
  const ask = (addresses: LookupAddress[], all: boolean) =>
    new Promise<Parameters<Answer>>((resolve) =>
      publicOnlyLookup(fakeDns(addresses))('rebind.test', { all }, (...args: Parameters<Answer>) => resolve(args)),
    );

  it('passes public answers through, in both callback forms', async () => {
    const answers = [{ address: '93.184.216.34', family: 4 }];
    expect(await ask(answers, true)).toEqual([null, answers]);
    expect(await ask(answers, false)).toEqual([null, '93.184.216.34', 4]);
  });

  it('fails the connection when any answer is not public', async () => {
    for (const answers of [
      [{ address: '127.0.0.1', family: 4 }],
      [
        { address: '93.184.216.34', family: 4 },
        { address: '::ffff:10.0.0.1', family: 6 },
      ],
      [],
    ]) {
      const [error] = await ask(answers, true);
      expect(error).toBeInstanceOf(RefusedTargetError);
      expect(error!.message).toMatch(/^rebind\.test resolves to .*, not a public address$/);
    }
  });

  it('refusedTarget: IP literals are judged before connecting (a socket never looks them up)', () => {
    expect(refusedTarget(new URL('http://127.0.0.1:6379/'), false)).toBe('127.0.0.1 is not a public address');
    expect(refusedTarget(new URL('http://127.0.0.1:6379/'), true)).toBeUndefined();
    expect(refusedTarget(new URL('http://93.184.216.34/'), false)).toBeUndefined();
    expect(refusedTarget(new URL('ftp://93.184.216.34/'), true)).toBe('ftp: is not http or https');
  });
});

describe('WebhookSender against a receiver on 127.0.0.1', () => {
  let server: Server;
  let port = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url!);
      req.resume();
      if (req.url === '/moved') res.writeHead(302, { location: `http://127.0.0.1:${port}/hook` }).end();
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (hits.length = 0));

  // a name whose DNS answer is now private, as after a rebinding: the guard sees the real answer
  const rebinding = (_host: string, _options: object, callback: (e: null, a: LookupAddress[]) => void) =>
    callback(null, [{ address: '127.0.0.1', family: 4 }]);

  it('refuses a name that now resolves to a private address, sending nothing', async () => {
    const sender = new WebhookSender(false, publicOnlyLookup(rebinding));
    await expect(sender.post(`http://rebind.test:${port}/hook`, '{}', {}, 5000)).rejects.toThrow(
      new RefusedTargetError('rebind.test resolves to 127.0.0.1, not a public address'),
    );
    await expect(sender.post(`http://127.0.0.1:${port}/hook`, '{}', {}, 5000)).rejects.toThrow(RefusedTargetError);
    await expect(sender.post(`http://[::ffff:7f00:1]:${port}/hook`, '{}', {}, 5000)).rejects.toThrow(
      RefusedTargetError,
    );
    sender.close();
    expect(hits).toEqual([]);
  });

  it('with private targets allowed, delivers to a private address', async () => {
    const sender = new WebhookSender(true, publicOnlyLookup(rebinding));
    expect(await sender.post(`http://localhost:${port}/hook`, '{}', {}, 5000)).toBe(200);
    sender.close();
    expect(hits).toEqual(['/hook']);
  });

  it('follows no redirect: a 302 is the answer', async () => {
    const sender = new WebhookSender(true);
    expect(await sender.post(`http://127.0.0.1:${port}/moved`, '{}', {}, 5000)).toBe(302);
    sender.close();
    expect(hits).toEqual(['/moved']);
  });
});
