import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

export interface DnsServer {
  /** `127.0.0.1:<port>`, for `MAILBOX_DNS_SERVERS`. */
  address: string;
  /** The TXT records of a name (replacing any); an empty list removes the name. */
  setTxt(name: string, values: string[]): void;
  /** Answers SERVFAIL for the name (a failing lookup), until `setTxt` sets it again. */
  failFor(name: string): void;
  /** Names asked for, in order (lower case), TXT questions only. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * A real DNS server on a loopback UDP port answering TXT questions from what the test set: the
 * records of a known name, NXDOMAIN for any other. What node's resolver, pointed at it, sends and
 * reads is the DNS wire format (dns-packet), as with any other server.
 */
export async function startDnsServer(): Promise<DnsServer> {
  const records = new Map<string, string[]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase() ?? '';
    if (question?.type === 'TXT') {
      asked.push(name);
    }
    const values = records.get(name);
    const answers: dnsPacket.Answer[] =
      question?.type === 'TXT' && values
        ? values.map((value) => ({ type: 'TXT', name: question.name, ttl: 0, class: 'IN', data: [value] }))
        : [];
    // The response code: SERVFAIL for a failing name, NXDOMAIN for an unknown one.
    const rcode = failing.has(name) ? 2 : values === undefined ? 3 : 0;
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags:
        dnsPacket.AUTHORITATIVE_ANSWER |
        dnsPacket.RECURSION_AVAILABLE |
        ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) |
        rcode,
      questions: query.questions,
      answers,
    });
    socket.send(response, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    setTxt(name, values) {
      failing.delete(name.toLowerCase());
      if (values.length === 0) {
        records.delete(name.toLowerCase());
      } else {
        records.set(name.toLowerCase(), values);
      }
    },
    failFor(name) {
      failing.add(name.toLowerCase());
    },
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
