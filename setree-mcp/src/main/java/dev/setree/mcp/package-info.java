/**
 * A Model Context Protocol server over a SETree knowledge base, for host applications and {@code setree mcp}:
 * {@link dev.setree.mcp.SetreeMcpServer} (start and stop it over a pair of streams),
 * {@link dev.setree.mcp.KnowledgeBaseTools} (the tools and the knowledge base they share). Built on the
 * official MCP Java SDK; see {@code docs/adr/0007-mcp-sdk.md} and {@code docs/adr/0013-mcp-module-and-ga-reactor.md}.
 */
package dev.setree.mcp;
