import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * PEM files made for one test run by `openssl`: a CA, a server certificate for 127.0.0.1 /
 * localhost (PEM, and in a PKCS#12 keystore for Kafka), a client's, and a CA nobody trusts. Kafka's
 * (secured-kafka-broker) and PostgreSQL's (tls-postgres) TLS tests use them.
 */
export interface TestCertificates {
  dir: string;
  caFile: string;
  /** A CA of its own (and not the server's): what an untrusted server certificate looks like to a client. */
  otherCaFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  serverKeystoreFile: string;
  keystorePassword: string;
  clientCertFile: string;
  clientKeyFile: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

/** A CA, a server certificate for 127.0.0.1 / localhost (also in a PKCS#12 keystore), and a client certificate (mTLS). */
export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-tls-'));
  const days = ['-days', '2'];
  for (const ca of ['ca', 'other-ca']) {
    openssl(
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${ca}.key`,
        '-out',
        `${ca}.crt`,
        ...days,
        '-subj',
        `/CN=swapgw-test-${ca}`,
      ],
      dir,
    );
  }
  fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const issue = (name: string, subject: string, extensions?: string) => {
    openssl(
      [
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        subject,
      ],
      dir,
    );
    openssl(
      [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.crt`,
        ...days,
        ...(extensions ? ['-extfile', extensions] : []),
      ],
      dir,
    );
  };
  issue('server', '/CN=127.0.0.1', 'server.ext');
  issue('client', '/CN=swapgw-test-client');
  const keystorePassword = 'test-keystore-secret';
  openssl(
    [
      'pkcs12',
      '-export',
      '-in',
      'server.crt',
      '-inkey',
      'server.key',
      '-certfile',
      'ca.crt',
      '-out',
      'server.p12',
      '-passout',
      `pass:${keystorePassword}`,
    ],
    dir,
  );
  return {
    dir,
    caFile: path.join(dir, 'ca.crt'),
    otherCaFile: path.join(dir, 'other-ca.crt'),
    serverCertFile: path.join(dir, 'server.crt'),
    serverKeyFile: path.join(dir, 'server.key'),
    serverKeystoreFile: path.join(dir, 'server.p12'),
    keystorePassword,
    clientCertFile: path.join(dir, 'client.crt'),
    clientKeyFile: path.join(dir, 'client.key'),
  };
}
