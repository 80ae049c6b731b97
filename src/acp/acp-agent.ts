import path from 'node:path';
import {
  agent,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type ClientCapabilities,
  type McpServer,
} from '@agentclientprotocol/sdk';
import type { RunFlags } from '../run/add-run-flags.js';
import { resolveRunConfig } from '../run/run-flags.js';
import { createApiModel } from '../run/model-factory.js';
import { prepareRun } from '../run/prepare-run.js';
import type { RunConfig } from '../run/run-config.js';
import { untrustedMessage } from '../run/trust-gate.js';
import { UsageError } from '../errors/xagent-error.js';
import { packageVersion } from '../run/version.js';
import { SessionError } from '../sessions/errors.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { AcpSession } from './acp-session.js';
import { editorReadFileTool } from './editor-read-file.js';
import { EditorWrites, editorEditFileTool, editorWriteFileTool } from './editor-write-files.js';
import { editorMcpServers, withEditorServers } from './mcp-servers.js';
import { replayUpdates } from './replay.js';
import { permissionModeOf } from './session-modes.js';

export interface AcpAgentOptions {
  /** The flags `xagent acp` was started with: every session's run is resolved from them, as `-p`'s is. */
  flags: RunFlags;
  /** The environment as it was at start, with the API key (each session's model client reads it). */
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WritableStream;
}

/**
 * xagent as an ACP agent: `initialize`, `session/new`, `session/load`, `session/prompt`,
 * `session/cancel`, `session/set_mode`. Each session is a run prepared as the CLI prepares one
 * (resolveRunConfig → prepareRun: settings, trust, hooks, MCP, limits, records, the inspector),
 * with the editor's MCP servers added and, where the editor offers fs, the file tools going through its buffers.
 * The SDK parses every request against the protocol's schema before a handler sees it.
 * @example const { app, closeAll } = createAcpAgent({ flags, env, stderr }); app.connect(ndJsonStream(output, input));
 */
export function createAcpAgent({ flags, env, stderr }: AcpAgentOptions): { app: AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let clientCapabilities: ClientCapabilities = {};
  let inspectorTaken = false;
  const note = (line: string) => stderr.write(`${line}\n`);

  const openSession = async (
    client: AgentContext,
    params: { cwd: string; mcpServers: McpServer[]; resume?: string },
  ): Promise<AcpSession> => {
    if (!path.isAbsolute(params.cwd))
      throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got ${JSON.stringify(params.cwd)}`);
    let config: RunConfig;
    try {
      config = resolveRunConfig(
        { ...flags, cwd: params.cwd, ...(params.resume !== undefined ? { resume: params.resume } : {}), continue: false },
        [],
        // A copy: the run takes the key out of the environment it is given, and the next session needs it again.
        { ...env },
        createApiModel,
      );
    } catch (error) {
      throw asRequestError(error, params.resume);
    }
    // Nobody can be asked on a terminal here: untrusted project items stay out, and the editor is told.
    const { untrusted, ...trusted } = config;
    const notice = untrusted ? `Note: ${untrustedMessage(untrusted.items)}` : null;
    if (notice) note(`xagent: ${notice}`);
    config = trusted;
    // One inspector port for the process: the first session gets the asked-for port, later ones a free one.
    if (config.inspectPort !== null) {
      if (inspectorTaken) config = { ...config, inspectPort: 0 };
      inspectorTaken = true;
    }
    config = { ...config, mcpServers: withEditorServers(config.mcpServers ?? [], editorMcpServers(params.mcpServers)) };
    let sessionId = '';
    const writes = new EditorWrites();
    const editorTools = editorFileTools(client, clientCapabilities, () => sessionId, writes);
    if (editorTools.length > 0) {
      const byName = new Map(editorTools.map((tool) => [tool.name, tool]));
      const tools = config.tools.names().flatMap((name) => byName.get(name) ?? config.tools.get(name) ?? []);
      config = { ...config, tools: new ToolRegistry(tools) };
    }
    let run;
    try {
      run = await prepareRun(config, { stderr, env });
    } catch (error) {
      throw asRequestError(error, params.resume);
    }
    // The CLI's --resume takes a unique prefix too; the editor must name the session exactly, as it then calls it by that id.
    if (params.resume !== undefined && run.session.sessionId !== params.resume) {
      await run.close();
      throw RequestError.sessionNotFound(params.resume);
    }
    sessionId = run.session.sessionId;
    const session = new AcpSession(run, client, note, notice, writes);
    sessions.set(session.id, session);
    return session;
  };

  const sessionFor = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  const app = agent({ name: 'xagent' })
    .onRequest('initialize', ({ params }) => {
      // Older than v1 we cannot speak; a newer client gets v1 back and decides (the spec's negotiation).
      if (params.protocolVersion < 1) throw RequestError.unsupportedProtocolVersion(params.protocolVersion, [PROTOCOL_VERSION]);
      clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        authMethods: [],
        agentInfo: { name: 'xagent', title: 'xagent', version: packageVersion() },
      };
    })
    .onRequest('session/new', async ({ params, client }) => {
      const session = await openSession(client, { cwd: params.cwd, mcpServers: params.mcpServers });
      return { sessionId: session.id, modes: session.modes() };
    })
    .onRequest('session/load', async ({ params, client }) => {
      if (sessions.has(params.sessionId))
        throw RequestError.invalidRequest(undefined, `session ${params.sessionId} is already open on this connection`);
      const session = await openSession(client, { cwd: params.cwd, mcpServers: params.mcpServers, resume: params.sessionId });
      // The whole conversation goes out before the answer, as the protocol asks.
      for (const update of replayUpdates(session.run.session.messages, session.run.config.workspace)) await session.send(update);
      return { modes: session.modes() };
    })
    .onRequest('session/prompt', ({ params }) => sessionFor(params.sessionId).runPrompt(params.prompt))
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest('session/set_mode', ({ params }) => {
      const session = sessionFor(params.sessionId);
      const mode = permissionModeOf(params.modeId);
      if (!mode)
        throw RequestError.invalidParams(
          undefined,
          `unknown mode ${JSON.stringify(params.modeId)}: one of ${session
            .modes()
            .availableModes.map((m) => m.id)
            .join(', ')}`,
        );
      session.setMode(mode);
      return {};
    });

  return {
    app,
    async closeAll() {
      await Promise.all([...sessions.values()].map((session) => session.close()));
      sessions.clear();
    },
  };
}

/**
 * The file tools that go through the editor, for what it offers: read_file reads its buffers
 * (unsaved edits seen), write_file and edit_file write through it. Each still resolves the path in
 * the workspace first, so the editor is never asked about a file outside it.
 */
function editorFileTools(client: AgentContext, capabilities: ClientCapabilities, sessionId: () => string, writes: EditorWrites): Tool[] {
  const canRead = capabilities.fs?.readTextFile === true;
  const canWrite = capabilities.fs?.writeTextFile === true;
  return [
    ...(canRead ? [editorReadFileTool({ client, sessionId })] : []),
    ...(canWrite
      ? [editorWriteFileTool({ client, sessionId, canRead, writes }), editorEditFileTool({ client, sessionId, canRead, writes })]
      : []),
  ];
}

/** A run that cannot start is the client's to fix (bad cwd, settings, unknown session): an error that says why. */
function asRequestError(error: unknown, resume: string | undefined): unknown {
  if (error instanceof SessionError && error.code === 'SESSION_NOT_FOUND' && resume !== undefined)
    return RequestError.sessionNotFound(resume);
  if (error instanceof UsageError) {
    return RequestError.invalidParams(undefined, error.message);
  }
  return error;
}
