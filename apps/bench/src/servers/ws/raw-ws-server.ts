// The floor for WebSocket memory: a bare `ws` server that answers MCP's opening and `echo` by hand (see
// raw-answer.ts). What an idle connection costs here is ws's and node's own (the socket, ws's WebSocket, Receiver and
// Sender); what mcpkit's server holds beyond it is ours.
import { WebSocketServer } from 'ws';
import { installCpuReport } from '../cpu-report';
import { announce } from '../http/http-args';
import { type RawMessage, rawReply } from '../raw-answer';

installCpuReport();
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/mcp' });
server.on('connection', (socket) => {
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as RawMessage;
    if (message.id !== undefined) socket.send(rawReply(message));
  });
});
server.on('listening', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null) announce(`ws://127.0.0.1:${address.port}/mcp`);
});
