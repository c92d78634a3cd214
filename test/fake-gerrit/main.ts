// CLI entry for the sample hosts: starts one fake Gerrit per sample org, prints `org url` lines,
// and stays up until SIGINT or SIGTERM. Bundled by the lead's scripts; call main() from the bundle.
import { type SampleHostsOptions, startSampleHosts } from './server';

function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export interface MainOptions extends SampleHostsOptions {
  out?: NodeJS.WritableStream;
  /** Resolves when the hosts should stop; default: on SIGINT or SIGTERM. */
  until?: Promise<void>;
}

export async function main(opts: MainOptions = {}): Promise<void> {
  const { hosts, close } = await startSampleHosts(opts);
  try {
    for (const host of hosts) (opts.out ?? process.stdout).write(`${host.org} ${host.url}\n`);
    await (opts.until ?? untilSignal());
  } finally {
    await close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
