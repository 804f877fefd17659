import Foundation

/// What the figures depend on: processors, kernel, memory, and the file system under the
/// benchmark's folder.
struct MachineFacts {
    var processors: Int
    var cpuModel: String?
    var kernel: String
    var memory: Int?
    var fileSystem: String
    var device: String?
    var mountPoint: String?
    /// True when the folder is on the same device as /work (so figures hold for the project).
    var sameDeviceAsWork: Bool?

    init(folder: String) {
        processors = ProcessInfo.processInfo.activeProcessorCount
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
        }
        kernel = "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))"
        cpuModel = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        memory = Int(ProcessInfo.processInfo.physicalMemory)

        // statfs(2) is not in the Glibc module; `stat -f` asks it for us.
        let statType = Self.output(of: "/usr/bin/stat", ["-f", "-c", "%T", folder])
        let mount = Self.mount(of: folder)
        fileSystem = [mount?.type, statType.map { "stat -f: \($0)" }].compactMap { $0 }.joined(separator: ", ")
        if mount?.type == "ext4", let device = mount?.device.split(separator: "/").last,
           let task = try? String(contentsOfFile: "/sys/fs/ext4/\(device)/journal_task", encoding: .utf8) {
            // ext4 names its journal thread here, or "<none>" when the file system has no journal.
            fileSystem += task.hasPrefix("<none>") ? ", no journal" : ", journalled"
        }
        if fileSystem.isEmpty { fileSystem = "unknown" }
        device = mount?.device
        mountPoint = mount?.point

        var here = stat(), work = stat()
        if stat(folder, &here) == 0 && stat("/work", &work) == 0 { sameDeviceAsWork = here.st_dev == work.st_dev }
    }

    /// A command's first line of output, or nil when it fails.
    private static func output(of command: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// The longest mount point in /proc/self/mounts that holds `path`.
    private static func mount(of path: String) -> (device: String, point: String, type: String)? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (device: String, point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 3 else { continue }
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let holds = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
            if holds && point.count >= (best?.point.count ?? -1) { best = (fields[0], point, fields[2]) }
        }
        return best
    }

    var lines: [String] {
        var lines = [
            "processors  \(processors) (nproc)" + (cpuModel.map { ", \($0)" } ?? ""),
            "kernel      \(kernel) (uname)",
        ]
        if let memory { lines.append("memory      \(Format.bytes(memory))") }
        var where_ = "file system \(fileSystem)"
        if let device, let mountPoint { where_ += ", \(device) on \(mountPoint)" }
        lines.append(where_)
        if let sameDeviceAsWork {
            lines.append("            " + (sameDeviceAsWork ? "same device as /work" : "NOT the device of /work: figures may not hold for the project's data"))
        }
        return lines
    }
}
