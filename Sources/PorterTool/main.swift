import PorterCommands

// Thin entry point: every command lives in PorterCommands, where tests call it in-process.
PorterCLI.main(PorterCLI.normalized(Array(CommandLine.arguments.dropFirst())))
