import Foundation
import PorterModel

extension Database {
    /// Tells the connection that the data it stands for changed outside it: moves both
    /// ``stateStamp`` and ``changeToken``, so cached rows are read again and observers are told.
    /// For a database that holds no objects of its own and only describes data kept elsewhere
    /// (Porter's typed API on a Realm file, whose file changed on disk); writes only a temporary
    /// table of this connection, never the file.
    package func noteExternalChange() throws {
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS porter_external_change (n INTEGER)")
        try connection.execute("INSERT INTO temp.porter_external_change (n) VALUES (1)")
        rollbackEpoch &+= 1
    }
}
