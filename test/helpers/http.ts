// A GET from node (not from a page): the status and the body as text, for the tests of the servers
// the project starts (`iqm-tools view`, `npm start` without VS Code).
import { get } from 'node:http';

export function httpGet(address: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(address, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}
