// vigil-embed-models: writes the Swift source that embeds the shipped sound models in the binary.
//
//   swift run vigil-embed-models [MODELS_DIR [OUTPUT]]
//
// Reads every MODELS_DIR/*.json (default Models), checks that each is a valid model and that its
// minified text decodes to the same values, and writes OUTPUT (default
// Sources/VigilDetectors/EmbeddedModels.swift). `make embedded-models` runs it. Exit status 1 with
// the file and the reason when a model does not load, 64 on a usage error.
import Foundation
import VigilTraining

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains(where: { $0.hasPrefix("-") }) || arguments.count > 2 {
    FileHandle.standardError.write(Data("usage: vigil-embed-models [MODELS_DIR [OUTPUT]]\n".utf8))
    exit(64)
}
let modelsDirectory = URL(fileURLWithPath: arguments.first ?? "Models")
let output = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "Sources/VigilDetectors/EmbeddedModels.swift")

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("vigil-embed-models: \(message)\n".utf8))
    exit(1)
}

var isDirectory: ObjCBool = false
guard FileManager.default.fileExists(atPath: modelsDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
    fail("\(modelsDirectory.path): no such directory (the model files, Models/*.json)")
}
do {
    let names = try FileManager.default.contentsOfDirectory(atPath: modelsDirectory.path).filter { $0.hasSuffix(".json") }.sorted()
    guard !names.isEmpty else { fail("no model files (*.json) in \(modelsDirectory.path)") }
    let files = try names.map { name in
        (
            name: modelsDirectory.appendingPathComponent(name).path,
            text: try String(contentsOf: modelsDirectory.appendingPathComponent(name), encoding: .utf8)
        )
    }
    let source = try EmbeddedModelsSource.render(files: files)
    try Data(source.utf8).write(to: output, options: .atomic)
    print("wrote \(output.path): \(files.count) models, \(source.utf8.count) bytes")
} catch let error as EmbeddedModelsSourceError {
    fail(error.description)
} catch {
    fail("\(error)")
}
