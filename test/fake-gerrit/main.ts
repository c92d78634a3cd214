// CLI entry for the sample hosts: starts one fake Gerrit per sample org, prints `org url` lines,
// and stays up until SIGINT or SIGTERM. Bundled by the lead's scripts; call main() from the bundle.
import { startSampleHosts } from './server';

export async function main(out: NodeJS.WritableStream = process.stdout): Promise<void> {
  const { hosts, close } = await startSampleHosts();
  for (const host of hosts) out.write(`${host.org} ${host.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await close();
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
