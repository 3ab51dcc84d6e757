import { Controller, Delete, Get, HttpException, HttpStatus, Inject, Module, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { version } from '../../../package.json';
import { canRead, canSearch } from '../model/readable-fields';
import { Actor } from '../auth/request-actor.decorator';
import { Access, adminAccess } from '../model/access';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ERROR_NAMES } from '../errors/error-names';
import { ResponseHeaders, SetHeader } from '../http/response-headers.decorator';
import { CollectionCatalog } from '../model/collection-catalog';
import { RequestActor } from '../model/record';
import { AllExceptionsFilter } from '../rest/all-exceptions.filter';
import { McpToolRunner } from './mcp-tool-runner';
import { ToolDefinition, toolDefinitions } from './mcp-tools';
import { FastifyReply, takeOverResponse } from '../http/take-over-response';

/** Express hands Node's request and response; Fastify wraps them (`raw`) and must be told the reply is taken over. */
type AnyRequest = IncomingMessage & { body?: unknown; raw?: IncomingMessage };
type AnyResponse = ServerResponse & { raw?: ServerResponse; hijack?: () => void };

/**
 * `POST /rest/mcp` (and the GET and DELETE of the protocol): a Model Context Protocol server over
 * Streamable HTTP, stateless (a server and a transport per request, JSON answers). It sits
 * behind the same global guard (API key, rate limit) and request log as every route; the
 * actor of the request is the actor of the tools' writes. The transport writes the response
 * itself, hence `@Res()` here and only here.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  private readonly tools: ToolDefinition[];
  /** The tools as a key with a role sees them: only the collections it can read. */
  private readonly toolsByAccess = new WeakMap<Access, ToolDefinition[]>();

  constructor(
    private readonly runner: McpToolRunner,
    private readonly errors: AllExceptionsFilter,
    private readonly catalog: CollectionCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.tools = this.definitions(adminAccess(''));
  }

  private definitions(access: Access): ToolDefinition[] {
    const readable = this.catalog.all().filter((m) => canRead(access, m.plural));
    const searchable = readable.filter((m) => m.searchable && canSearch(access, m));
    return toolDefinitions(
      readable.map((m) => m.plural),
      searchable.map((m) => m.plural),
      this.config,
    );
  }

  private toolsFor(access: Access): ToolDefinition[] {
    if (access.admin) return this.tools;
    let tools = this.toolsByAccess.get(access);
    if (!tools) this.toolsByAccess.set(access, (tools = this.definitions(access)));
    return tools;
  }

  private async call(name: string, args: unknown, actor: RequestActor): Promise<CallToolResult> {
    try {
      const result = await this.runner.run(name, args, actor);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (error) {
      // the REST error envelope, as the route would have answered it (no SQL, no stack)
      const { status, messages } = this.errors.classify(error);
      const envelope = { statusCode: status, error: ERROR_NAMES[status] ?? `Http${status}Exception`, messages };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
    }
  }

  private server(actor: RequestActor): Server {
    const server = new Server({ name: 'crm-record-service', version }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.toolsFor(actor.access) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      this.call(request.params.name, request.params.arguments ?? {}, actor),
    );
    return server;
  }

  @Post()
  post(@Req() request: AnyRequest, @Res() response: AnyResponse, @Actor() actor: RequestActor): Promise<void> {
    return this.handle(request, response, actor);
  }

  /**
   * Stateless: there is no stream to resume (GET) and no session to end (DELETE), so both are a
   * 405 naming POST, as the Streamable HTTP transport allows (not a stream left open per GET).
   */
  @Get()
  get(@ResponseHeaders() header: SetHeader): never {
    return notAllowed(header);
  }

  @Delete()
  delete(@ResponseHeaders() header: SetHeader): never {
    return notAllowed(header);
  }

  private async handle(request: AnyRequest, response: AnyResponse, actor: RequestActor): Promise<void> {
    const res = takeOverResponse(response as ServerResponse | FastifyReply);
    const req = request.raw ?? request;
    const server = this.server(actor);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, request.body);
  }
}

function notAllowed(header: SetHeader): never {
  header('Allow', 'POST');
  throw new HttpException('The MCP endpoint is stateless: POST each JSON-RPC message', HttpStatus.METHOD_NOT_ALLOWED);
}

@Module({ controllers: [McpController], providers: [McpToolRunner, AllExceptionsFilter] })
export class McpModule {}
