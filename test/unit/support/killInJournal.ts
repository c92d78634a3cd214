// A preload (`node --require`) that kills its process with SIGKILL at a chosen point of a corpus save,
// for the kill -9 tests of the journal. RC_KILL: "append:N" kills in the Nth append to an existing
// journal, half its record written; "fold-rename" just before a full save's rename over
// RC_KILL_TARGET; "fold-remove" after it, when the folded journal is about to be removed.
export const KILL_IN_JOURNAL_PRELOAD = `
      const fs = require('node:fs');
      const path = require('node:path');
      const mode = process.env.RC_KILL || '';
      const target = path.resolve(process.env.RC_KILL_TARGET || '');
      const die = () => process.kill(process.pid, 'SIGKILL');
      const journalFds = new Set();
      const openSync = fs.openSync;
      fs.openSync = function (p, flags) {
        const fd = openSync.apply(this, arguments);
        if (String(p).endsWith('.rcj') && flags === 'r+') journalFds.add(fd);
        return fd;
      };
      const closeSync = fs.closeSync;
      fs.closeSync = function (fd) { journalFds.delete(fd); return closeSync.apply(this, arguments); };
      let appends = 0;
      const writeSync = fs.writeSync;
      fs.writeSync = function (fd, buf, off, len, pos) {
        if (mode.startsWith('append:') && journalFds.has(fd) && off === 0 && ++appends === Number(mode.slice(7))) {
          writeSync(fd, buf, 0, Math.max(1, len >> 1), pos);
          die();
        }
        return writeSync.apply(this, arguments);
      };
      const renameSync = fs.renameSync;
      fs.renameSync = function (from, to) {
        if (mode === 'fold-rename' && path.resolve(String(to)) === target) die();
        return renameSync.apply(this, arguments);
      };
      const rmSync = fs.rmSync;
      fs.rmSync = function (p) {
        if (mode === 'fold-remove' && path.resolve(String(p)) === target + '.rcj') die();
        return rmSync.apply(this, arguments);
      };`;
