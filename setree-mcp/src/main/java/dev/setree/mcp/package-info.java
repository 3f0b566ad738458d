/**
 * The Model Context Protocol server of {@code setree mcp}: {@link dev.setree.cli.mcp.KnowledgeBaseTools} (the
 * seven tools and the knowledge base they share) and {@link dev.setree.cli.mcp.SetreeMcpServer} (the stdio
 * transport, on the official MCP Java SDK). See {@code docs/adr/0007-mcp-sdk.md}.
 */
package dev.setree.mcp;
