// Preloaded (`node --import`) into the conformance CLI so its mock servers listen on 127.0.0.1 only.
//
// The suite (0.1.16) calls `server.listen(0)` / `app.listen(0)` without a host, which binds every interface, and
// has no option or environment variable to change that. It also reads `server.address().port` synchronously right
// after `listen`, so passing a host to `listen` is not an option (a host makes Node resolve it asynchronously first).
// Instead this patches `net.Server.prototype._listen2`, the step where Node binds the socket once the address is
// known: a wildcard or missing address becomes 127.0.0.1, synchronously as before. Node 22 (the CLI's runtime).
import net from 'node:net';

const LOOPBACK = '127.0.0.1';
const WILDCARDS = new Set([null, undefined, '', '::', '0.0.0.0']);
const listen2 = net.Server.prototype._listen2;
if (typeof listen2 !== 'function') throw new Error('bind-localhost: net.Server.prototype._listen2 is missing');

net.Server.prototype._listen2 = function listenOnLoopback(address, port, addressType, ...rest) {
  // A pipe (port -1 with a path as address) or a fixed address is left as it is.
  if (WILDCARDS.has(address) && typeof port === 'number' && port >= 0)
    return listen2.call(this, LOOPBACK, port, 4, ...rest);
  return listen2.call(this, address, port, addressType, ...rest);
};
